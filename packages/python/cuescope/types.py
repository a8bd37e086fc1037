"""Types of the event bodies' nested objects, as they go on the wire (camelCase keys).

Top-level body fields are the Run methods' keyword arguments (snake_case); the nested objects
below are passed as plain dicts exactly as telemetry v1 writes them (docs/contract/telemetry.md).
The shipped event schema, not these types, is what an event is checked against at run time.
"""

from typing import Dict, List, Literal, Optional, TypedDict, Union

ReminderKey = Literal["requests", "time", "context", "edits", "review"]
CompactionOutcome = Literal["adopted", "rolled_back"]
SubmissionOutcome = Literal["ok", "failed", "uncertain"]
SubmissionPurpose = Literal["turn", "retry", "reminder_resend"]
ModelActionKind = Literal["tool_call", "edit_block", "append_block", "review_objectives", "check_evidence", "finalize", "other"]
RunStatus = Literal["completed", "failed", "stopped"]
Mode = Literal["production", "development"]


class _ReminderRequired(TypedDict):
    key: ReminderKey
    stage: int


class Reminder(_ReminderRequired, total=False):
    """One entry of a reminder list (`request.submitted`, `reminders.marked`)."""

    subject: Optional[str]


class ContextParts(TypedDict, total=False):
    """`request.final`'s bytes by part (contract §11); each part optional."""

    system: int
    tools: int
    history: int
    retrieved: int
    reminders: int
    other: int


class _RequestsPolicyRequired(TypedDict):
    limit: int
    stages: List[float]


class RequestsPolicy(_RequestsPolicyRequired, total=False):
    deliveryReserve: int
    remind: bool


class _TimePolicyRequired(TypedDict):
    limitMs: int
    stages: List[float]


class TimePolicy(_TimePolicyRequired, total=False):
    remind: bool


class _ContextPolicyRequired(TypedDict):
    capacityBytes: int
    stages: List[float]


class ContextPolicy(_ContextPolicyRequired, total=False):
    remind: bool


class _EditsPolicyRequired(TypedDict):
    perBlockLimit: int
    stages: List[float]


class EditsPolicy(_EditsPolicyRequired, total=False):
    remind: bool


class ReviewPolicy(TypedDict, total=False):
    everyTurns: int
    afterMs: int
    remind: bool


class ReviewerPolicy(TypedDict, total=False):
    autoReviewAllowed: bool
    minRequestsLeft: int


class Policy(TypedDict, total=False):
    """A run's policy (contract §5): every section optional; a missing section switches that meter off."""

    requests: RequestsPolicy
    time: TimePolicy
    context: ContextPolicy
    edits: EditsPolicy
    review: ReviewPolicy
    reviewer: ReviewerPolicy


class Copy(TypedDict, total=False):
    """Reminder templates replacing the default copy key by key (contract §5): template name
    (``"*"``, a stage number such as ``"2"``, or ``"exhausted"`` for edits) → text with ``{placeholders}``."""

    requests: Dict[str, str]
    time: Dict[str, str]
    context: Dict[str, str]
    edits: Dict[str, str]
    review: Dict[str, str]

#: Any JSON value.
Json = Union[None, bool, int, float, str, List["Json"], Dict[str, "Json"]]
