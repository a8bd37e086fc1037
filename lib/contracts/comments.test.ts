import { describe, expect, it } from "vitest";
import { problemsFrom } from "./issues";
import { MAX_COMMENT_CHARS, ZCommentCreate, ZCommentEdit, ZCommentListQuery, ZCommentPathParams } from "./comments";

const problem = (result: { success: boolean; error?: unknown }) =>
  result.success ? null : problemsFrom(result.error as Parameters<typeof problemsFrom>[0])[0];

describe("ZCommentCreate", () => {
  it.each([
    ["a run comment", { body: "**hi**" }, { body: "**hi**", turn: null }],
    ["an explicit null turn", { body: "x", turn: null }, { body: "x", turn: null }],
    ["a turn comment", { body: "x", turn: 0 }, { body: "x", turn: 0 }],
    ["the longest body", { body: "y".repeat(MAX_COMMENT_CHARS) }, { body: "y".repeat(MAX_COMMENT_CHARS), turn: null }],
  ])("accepts %s", (_, input, expected) => {
    expect(ZCommentCreate.parse(input)).toEqual(expected);
  });

  it.each([
    ["no body", {}, "body", /expected a comment of 1-10000 characters/],
    ["an empty body", { body: "" }, "body", /got 0 characters/],
    ["white space only", { body: " \n\t " }, "body", /only white space/],
    ["a body over the limit", { body: "y".repeat(MAX_COMMENT_CHARS + 1) }, "body", /got 10001 characters/],
    ["a NUL", { body: "a\u0000b" }, "body", /without NUL/],
    ["a lone surrogate", { body: "a\ud800" }, "body", /lone surrogates/],
    ["a fractional turn", { body: "x", turn: 1.5 }, "turn", /^expected a whole turn number, got 1.5$/],
    ["a negative turn", { body: "x", turn: -1 }, "turn", /^expected a turn number from 0, got -1$/],
    ["a turn past the column", { body: "x", turn: 2 ** 31 }, "turn", /^expected a turn number up to 2147483647/],
    ["a turn as text", { body: "x", turn: "3" }, "turn", /expected a turn number or null/],
    ["an unknown field", { body: "x", author: "me" }, "", /author/],
  ])("refuses %s, naming the field", (_, input, path, message) => {
    const found = problem(ZCommentCreate.safeParse(input));
    expect(found?.path).toBe(path);
    expect(found?.message).toMatch(message);
  });

  it("an edit takes the body alone", () => {
    expect(ZCommentEdit.parse({ body: "new" })).toEqual({ body: "new" });
    expect(problem(ZCommentEdit.safeParse({ body: "new", turn: 3 }))?.message).toMatch(/turn/);
  });
});

describe("ZCommentListQuery and the path", () => {
  it.each([
    [{}, { limit: 50 }],
    [{ turn: "run" }, { turn: "run", limit: 50 }],
    [
      { turn: "12", limit: "200" },
      { turn: 12, limit: 200 },
    ],
    [{ turn: 0 }, { turn: 0, limit: 50 }],
  ])("reads %j", (input, expected) => {
    expect(ZCommentListQuery.parse(input)).toEqual(expected);
  });

  it.each([
    [{ turn: "all" }, "turn"],
    [{ turn: "-1" }, "turn"],
    [{ limit: "201" }, "limit"],
    [{ cursor: "not a cursor!" }, "cursor"],
  ])("refuses %j", (input, path) => {
    expect(problem(ZCommentListQuery.safeParse(input))?.path).toBe(path);
  });

  it("a comment id is 1-128 characters", () => {
    expect(ZCommentPathParams.parse({ runId: "r", commentId: "c1" })).toEqual({ runId: "r", commentId: "c1" });
    expect(problem(ZCommentPathParams.safeParse({ runId: "r", commentId: "" }))?.path).toBe("commentId");
  });
});
