"""A small JSON Schema (2020-12) validator for the keywords of the shipped event schema.

``event_schema.json`` is generated from the server's own contracts (``npm run sdk:python-schema``).
This validator checks exactly the keywords in ``SUPPORTED_KEYWORDS`` and ignores the annotations in
``ANNOTATIONS``; the package's tests walk the schema and fail on any other keyword, so a contract
change that brings a new keyword cannot silently skip a check.
"""

import json
import math
from importlib import resources
from typing import Any, Dict, List, Mapping, Optional, Sequence

Schema = Mapping[str, Any]

#: Keywords that constrain a value: each is checked below.
SUPPORTED_KEYWORDS = frozenset(
    {
        "$ref",
        "$defs",
        "type",
        "const",
        "enum",
        "properties",
        "required",
        "additionalProperties",
        "propertyNames",
        "items",
        "prefixItems",
        "oneOf",
        "anyOf",
        "allOf",
        "minLength",
        "maxLength",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "minItems",
        "maxItems",
    }
)

#: Keywords that do not constrain a value (JSON Schema annotations); ignored.
ANNOTATIONS = frozenset({"$schema", "$comment", "$id", "title", "description", "default", "examples", "deprecated"})

#: Keywords whose value is a map of names to schemas (not keywords themselves).
SCHEMA_MAPS = frozenset({"properties", "$defs"})
#: Keywords whose value is a schema.
SCHEMA_VALUES = frozenset({"additionalProperties", "propertyNames", "items"})
#: Keywords whose value is a list of schemas.
SCHEMA_LISTS = frozenset({"oneOf", "anyOf", "allOf", "prefixItems"})

_schema_cache: Optional[Dict[str, Any]] = None


def event_schema() -> Dict[str, Any]:
    """The event schema shipped with the package (loaded once)."""
    global _schema_cache
    if _schema_cache is None:
        text = resources.files("cuescope").joinpath("event_schema.json").read_text(encoding="utf-8")
        loaded: Dict[str, Any] = json.loads(text)
        _schema_cache = loaded
        return loaded
    return _schema_cache


def validate(value: Any, schema: Optional[Schema] = None) -> List[str]:
    """The problems of ``value`` against ``schema`` (default: the event schema), as ``path: reason``; empty when valid."""
    root = event_schema() if schema is None else schema
    return _check(root, value, root, "")


def _describe(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return f"number {value!r}"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:40] + "…"
        return f"string {json.dumps(shown)}"
    if isinstance(value, Mapping):
        return "object"
    if isinstance(value, (list, tuple)):
        return "array"
    return type(value).__name__


def _has_type(value: Any, kind: str) -> bool:
    if kind == "null":
        return value is None
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "integer":
        if isinstance(value, bool):
            return False
        if isinstance(value, int):
            return True
        return isinstance(value, float) and math.isfinite(value) and value.is_integer()
    if kind == "number":
        if isinstance(value, bool):
            return False
        return isinstance(value, int) or (isinstance(value, float) and math.isfinite(value))
    if kind == "string":
        return isinstance(value, str)
    if kind == "array":
        return isinstance(value, (list, tuple))
    if kind == "object":
        return isinstance(value, Mapping)
    raise ValueError(f"unknown JSON Schema type {kind!r}")


def _same_json(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    return a == b


def _at(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def _resolve(root: Schema, ref: str) -> Optional[Schema]:
    if not ref.startswith("#/"):
        return None
    node: Any = root
    for part in ref[2:].split("/"):
        key = part.replace("~1", "/").replace("~0", "~")
        node = node.get(key) if isinstance(node, Mapping) else None
    return node if isinstance(node, Mapping) else None


def _check(schema: Schema, value: Any, root: Schema, path: str) -> List[str]:
    where = path or "(event)"
    problems: List[str] = []

    ref = schema.get("$ref")
    if isinstance(ref, str):
        target = _resolve(root, ref)
        if target is None:
            return [f"{where}: unresolved $ref {ref}"]
        problems.extend(_check(target, value, root, path))

    if "type" in schema:
        kinds = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(_has_type(value, kind) for kind in kinds):
            return problems + [f"{where}: expected {' or '.join(kinds)}, got {_describe(value)}"]
    if "const" in schema and not _same_json(schema["const"], value):
        problems.append(f"{where}: expected {json.dumps(schema['const'])}, got {_describe(value)}")
    if "enum" in schema and not any(_same_json(option, value) for option in schema["enum"]):
        problems.append(f"{where}: expected one of {', '.join(json.dumps(o) for o in schema['enum'])}, got {_describe(value)}")

    if isinstance(value, str):
        # JSON Schema counts code points, as Python's len does.
        if "minLength" in schema and len(value) < schema["minLength"]:
            problems.append(f"{where}: expected at least {schema['minLength']} characters, got {len(value)}")
        if "maxLength" in schema and len(value) > schema["maxLength"]:
            problems.append(f"{where}: expected at most {schema['maxLength']} characters, got {len(value)}")
    if _has_type(value, "number"):
        if "minimum" in schema and value < schema["minimum"]:
            problems.append(f"{where}: expected a number >= {schema['minimum']}, got {value!r}")
        if "maximum" in schema and value > schema["maximum"]:
            problems.append(f"{where}: expected a number <= {schema['maximum']}, got {value!r}")
        if "exclusiveMinimum" in schema and value <= schema["exclusiveMinimum"]:
            problems.append(f"{where}: expected a number > {schema['exclusiveMinimum']}, got {value!r}")
        if "exclusiveMaximum" in schema and value >= schema["exclusiveMaximum"]:
            problems.append(f"{where}: expected a number < {schema['exclusiveMaximum']}, got {value!r}")
    if isinstance(value, (list, tuple)):
        if "minItems" in schema and len(value) < schema["minItems"]:
            problems.append(f"{where}: expected at least {schema['minItems']} items, got {len(value)}")
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            problems.append(f"{where}: expected at most {schema['maxItems']} items, got {len(value)}")
        prefix: Sequence[Schema] = schema.get("prefixItems", [])
        items = schema.get("items")
        for i, item in enumerate(value):
            item_schema = prefix[i] if i < len(prefix) else items
            if isinstance(item_schema, Mapping):
                problems.extend(_check(item_schema, item, root, f"{path}[{i}]"))
    if isinstance(value, Mapping):
        problems.extend(_check_object(schema, value, root, path))

    if "allOf" in schema:
        for branch in schema["allOf"]:
            problems.extend(_check(branch, value, root, path))
    if "anyOf" in schema:
        results = [_check(branch, value, root, path) for branch in schema["anyOf"]]
        if not any(len(r) == 0 for r in results):
            problems.extend(_no_branch(schema["anyOf"], results, value, where, "anyOf"))
    if "oneOf" in schema:
        results = [_check(branch, value, root, path) for branch in schema["oneOf"]]
        passing = sum(1 for r in results if len(r) == 0)
        if passing == 0:
            problems.extend(_no_branch(schema["oneOf"], results, value, where, "oneOf"))
        elif passing > 1:
            problems.append(f"{where}: matches {passing} branches of oneOf, not one")
    return problems


def _discriminator(branches: Sequence[Schema]) -> Optional[str]:
    """The property every branch fixes with a distinct `const` (an event's `type`), if there is one."""
    names = None
    for branch in branches:
        props = branch.get("properties") if isinstance(branch, Mapping) else None
        fixed = {name for name, s in (props or {}).items() if isinstance(s, Mapping) and "const" in s}
        names = fixed if names is None else names & fixed
    if not names:
        return None
    for name in sorted(names):
        consts = [json.dumps(b["properties"][name]["const"]) for b in branches]
        if len(set(consts)) == len(consts):
            return name
    return None


def _no_branch(branches: Sequence[Schema], results: List[List[str]], value: Any, where: str, keyword: str) -> List[str]:
    """Why no branch matched: a discriminated union names the branch the value chose, or the choices."""
    name = _discriminator(branches)
    if name is not None and isinstance(value, Mapping):
        for branch, result in zip(branches, results):
            if name in value and _same_json(branch["properties"][name]["const"], value[name]):
                return result
        choices = ", ".join(json.dumps(b["properties"][name]["const"]) for b in branches)
        got = _describe(value[name]) if name in value else "nothing"
        return [f"{_at('' if where == '(event)' else where, name)}: expected one of {choices}, got {got}"]
    firsts = "; ".join(r[0] for r in results if r)
    return [f"{where}: matches no branch of {keyword} ({firsts})"]


def _check_object(schema: Schema, value: Mapping[str, Any], root: Schema, path: str) -> List[str]:
    problems: List[str] = []
    properties: Mapping[str, Schema] = schema.get("properties", {})
    for name in schema.get("required", []):
        if name not in value:
            problems.append(f"{_at(path, name)}: required")
    additional = schema.get("additionalProperties")
    names = schema.get("propertyNames")
    for name, item in value.items():
        at = _at(path, str(name))
        if not isinstance(name, str):
            problems.append(f"{at}: property names must be strings, got {_describe(name)}")
            continue
        if isinstance(names, Mapping):
            problems.extend(_check(names, name, root, f"{at} (name)"))
        if name in properties:
            problems.extend(_check(properties[name], item, root, at))
        elif additional is False:
            problems.append(f"{at}: unknown property (not allowed here)")
        elif isinstance(additional, Mapping):
            problems.extend(_check(additional, item, root, at))
    return problems


def keywords_used(schema: Any) -> set:
    """Every keyword the schema uses anywhere (property names of `properties` and `$defs` excluded)."""
    found: set = set()

    def walk(node: Any) -> None:
        if isinstance(node, list):
            for item in node:
                walk(item)
            return
        if not isinstance(node, Mapping):
            return
        for key, sub in node.items():
            found.add(key)
            if key in SCHEMA_MAPS and isinstance(sub, Mapping):
                for child in sub.values():
                    walk(child)
            elif key in SCHEMA_VALUES or key in SCHEMA_LISTS:
                walk(sub)
            # const, enum, default, required, examples: values, not schemas

    walk(schema)
    return found
