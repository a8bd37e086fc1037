import { describe, expect, it } from "vitest";
import { bearerKey, exporterKey, parseAuthorization } from "./authorization";

const basic = (userPassword: string) => `Basic ${Buffer.from(userPassword, "utf8").toString("base64")}`;

describe("the Authorization header (RFC 9110 section 11.6.2: scheme credentials, the scheme case-insensitive)", () => {
  it.each([
    ["Bearer cs_abc", "cs_abc"],
    ["bearer cs_abc", "cs_abc"],
    ["BEARER cs_abc", "cs_abc"],
    ["BeArEr \t cs_abc  ", "cs_abc"],
    ["Bearer", null],
    ["Bearer ", null],
    ["Bearer a b", null],
    ["Bearercs_abc", null],
    ["Token cs_abc", null],
    [basic("u:cs_abc"), null],
    ["", null],
  ])("%j carries the Bearer key %j", (value, key) => {
    expect(bearerKey(value)).toBe(key);
  });

  it("splits any scheme from its credentials", () => {
    expect(parseAuthorization("Basic dTpw")).toEqual({ scheme: "basic", credentials: "dTpw" });
    expect(parseAuthorization(null)).toBeNull();
    expect(parseAuthorization("Bearer")).toBeNull();
  });

  it("reads an exporter's key in each form, whatever the case of the scheme; Authorization wins over x-api-key", () => {
    const key = (headers: Record<string, string>) => exporterKey(new Headers(headers));
    expect(key({ authorization: "bearer cs_1" })).toEqual({ key: "cs_1" });
    expect(key({ authorization: basic("collector:cs_2") })).toEqual({ key: "cs_2" });
    expect(key({ authorization: basic("collector:cs_2").replace("Basic", "basic") })).toEqual({ key: "cs_2" });
    expect(key({ authorization: basic(":cs_3") })).toEqual({ key: "cs_3" });
    expect(key({ "x-api-key": " cs_4 " })).toEqual({ key: "cs_4" });
    expect(key({ authorization: "Bearer cs_5", "x-api-key": "cs_6" })).toEqual({ key: "cs_5" });
    expect(key({ authorization: basic("no-colon") })).toEqual({ unreadable: basic("no-colon") });
    expect(key({ authorization: "Token cs_7" })).toEqual({ unreadable: "Token cs_7" });
    expect(key({ "x-api-key": "  " })).toBeNull();
    expect(key({})).toBeNull();
  });
});
