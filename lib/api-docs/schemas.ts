import { z } from "zod";
import {
  ZAlert,
  ZAlertList,
  ZAlertRule,
  ZAlertRuleCreate,
  ZAlertRuleDeleted,
  ZAlertRules,
  ZAlertRuleUpdate,
  ZApiError,
  ZComment,
  ZCommentCreate,
  ZCommentDeleted,
  ZCommentEdit,
  ZCommentList,
  ZCommentedTurns,
  ZCopyVersion,
  ZCopyVersionCreate,
  ZCopyVersionList,
  ZEvent,
  ZEventsResponse,
  ZApiKey,
  ZApiKeyCreate,
  ZApiKeyCreated,
  ZApiKeyList,
  ZInvitation,
  ZInvitationCreate,
  ZInvitationCreated,
  ZMember,
  ZMemberList,
  ZMemberRemoved,
  ZResetLink,
  ZRoleChange,
  ZAuditEntry,
  ZAuditList,
  ZExperiment,
  ZExperimentAssignment,
  ZExperimentCreate,
  ZExperimentList,
  ZExperimentPromotion,
  ZExperimentUpdate,
  ZExperimentVersion,
  ZHealth,
  ZIngestResponse,
  ZOtlpRecordsResponse,
  ZPolicyVersion,
  ZPolicyVersionCreate,
  ZPolicyVersionList,
  ZReplayJob,
  ZReplayList,
  ZReplayMatching,
  ZReplayRequest,
  ZReplayTurn,
  ZReplayWhatIfRun,
  ZReview,
  ZReviewerCandidateRow,
  ZReviewerCandidatesResponse,
  ZReviewerFunnel,
  ZReviewerListRow,
  ZReviewProgress,
  ZReviewTrends,
  ZReviewUpdate,
  ZRunReviews,
  ZTrendsResponse,
  ZEffectivenessResponse,
  ZRunEffectivenessResponse,
  ZExperimentResults,
  ZRunDecisions,
  ZRunFacets,
  ZRunListItem,
  ZRunListResponse,
  ZRunSummary,
  ZRunTimeline,
  ZRunTriage,
  ZRunSearch,
  ZRunComparison,
  ZSavedView,
  ZSavedViewCreate,
  ZSavedViewList,
  ZSavedViewUpdate,
  ZTurnDetail,
} from "@/lib/contracts";
import { ZIngestRequestDoc } from "@/lib/endpoints/ingest";

/**
 * The contracts the API reference names under `components.schemas`, by name: each is converted once
 * with `z.toJSONSchema` and referred to with `$ref` from the operations and from each other.
 * Requests are described as clients write them (`io: "input"`: defaults may be left out), answers as
 * the server sends them (`io: "output"`).
 */

export const REQUEST_SCHEMAS = {
  Event: ZEvent,
  IngestRequest: ZIngestRequestDoc,
  CopyVersionCreate: ZCopyVersionCreate,
  PolicyVersionCreate: ZPolicyVersionCreate,
  ReplayRequest: ZReplayRequest,
  CommentCreate: ZCommentCreate,
  CommentEdit: ZCommentEdit,
  SavedViewCreate: ZSavedViewCreate,
  SavedViewUpdate: ZSavedViewUpdate,
  ExperimentCreate: ZExperimentCreate,
  ExperimentUpdate: ZExperimentUpdate,
  ExperimentVersion: ZExperimentVersion,
  ApiKeyCreate: ZApiKeyCreate,
  InvitationCreate: ZInvitationCreate,
  RoleChange: ZRoleChange,
  ReviewUpdate: ZReviewUpdate,
  AlertRuleCreate: ZAlertRuleCreate,
  AlertRuleUpdate: ZAlertRuleUpdate,
} as const;

export const RESPONSE_SCHEMAS = {
  ApiError: ZApiError,
  Health: ZHealth,
  IngestResponse: ZIngestResponse,
  OtlpRecordsResponse: ZOtlpRecordsResponse,
  RunListItem: ZRunListItem,
  RunListResponse: ZRunListResponse,
  RunFacets: ZRunFacets,
  RunSummary: ZRunSummary,
  RunDecisions: ZRunDecisions,
  EventsResponse: ZEventsResponse,
  TurnDetail: ZTurnDetail,
  RunTimeline: ZRunTimeline,
  RunTriage: ZRunTriage,
  RunSearch: ZRunSearch,
  RunComparison: ZRunComparison,
  ReviewerCandidateRow: ZReviewerCandidateRow,
  ReviewerCandidatesResponse: ZReviewerCandidatesResponse,
  ReviewerFunnel: ZReviewerFunnel,
  ReviewerListRow: ZReviewerListRow,
  Review: ZReview,
  RunReviews: ZRunReviews,
  ReviewProgress: ZReviewProgress,
  ReviewTrends: ZReviewTrends,
  AlertRule: ZAlertRule,
  AlertRules: ZAlertRules,
  AlertRuleDeleted: ZAlertRuleDeleted,
  Alert: ZAlert,
  AlertList: ZAlertList,
  TrendsResponse: ZTrendsResponse,
  EffectivenessResponse: ZEffectivenessResponse,
  RunEffectivenessResponse: ZRunEffectivenessResponse,
  ExperimentResults: ZExperimentResults,
  CopyVersion: ZCopyVersion,
  CopyVersionList: ZCopyVersionList,
  PolicyVersion: ZPolicyVersion,
  PolicyVersionList: ZPolicyVersionList,
  ReplayJob: ZReplayJob,
  ReplayList: ZReplayList,
  ReplayMatching: ZReplayMatching,
  ReplayTurn: ZReplayTurn,
  ReplayWhatIfRun: ZReplayWhatIfRun,
  Comment: ZComment,
  CommentList: ZCommentList,
  CommentedTurns: ZCommentedTurns,
  CommentDeleted: ZCommentDeleted,
  SavedView: ZSavedView,
  SavedViewList: ZSavedViewList,
  Experiment: ZExperiment,
  ExperimentList: ZExperimentList,
  ExperimentAssignment: ZExperimentAssignment,
  ExperimentPromotion: ZExperimentPromotion,
  AuditEntry: ZAuditEntry,
  ApiKey: ZApiKey,
  ApiKeyCreated: ZApiKeyCreated,
  ApiKeyList: ZApiKeyList,
  Member: ZMember,
  MemberList: ZMemberList,
  MemberRemoved: ZMemberRemoved,
  Invitation: ZInvitation,
  InvitationCreated: ZInvitationCreated,
  ResetLink: ZResetLink,
  AuditList: ZAuditList,
} as const;

export type RequestSchemaName = keyof typeof REQUEST_SCHEMAS;

const NAMES = new Map<z.ZodType, string>(
  [...Object.entries(REQUEST_SCHEMAS), ...Object.entries(RESPONSE_SCHEMAS)].map(([name, schema]) => [schema as z.ZodType, name]),
);

/**
 * The name a contract has under `components.schemas`; an endpoint that answers or takes a contract
 * without one is an error of this table (the document test builds every endpoint's).
 */
export function schemaName(schema: z.ZodType): SchemaName {
  const name = NAMES.get(schema);
  if (name === undefined)
    throw new Error("a contract of an endpoint has no name in lib/api-docs/schemas.ts (REQUEST_SCHEMAS / RESPONSE_SCHEMAS)");
  return name as SchemaName;
}
export type ResponseSchemaName = keyof typeof RESPONSE_SCHEMAS;
export type SchemaName = RequestSchemaName | ResponseSchemaName;

/** A JSON Schema (2020-12) as an object: what z.toJSONSchema gives. */
export type JsonSchema = { [keyword: string]: unknown };

export const COMPONENT_PREFIX = "#/components/schemas/";

/** Options shared by every conversion: a check or transform without a JSON Schema form is left open, not an error. */
const BASE = { target: "draft-2020-12", unrepresentable: "any", uri: (id: string) => COMPONENT_PREFIX + id } as const;

function convert(schemas: Record<string, z.ZodType>, io: "input" | "output"): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(schemas)) registry.add(schema, { id });
  const { schemas: converted } = z.toJSONSchema(registry, { ...BASE, io });
  // Inside components.schemas a schema needs neither its own dialect nor an id.
  return Object.fromEntries(
    Object.entries(converted).map(([id, { $schema: _dialect, $id: _id, ...schema }]) => [id, schema as JsonSchema]),
  );
}

/** Every named schema, as `components.schemas` holds them. */
export function componentSchemas(): Record<SchemaName, JsonSchema> {
  return { ...convert(REQUEST_SCHEMAS, "input"), ...convert(RESPONSE_SCHEMAS, "output") } as Record<SchemaName, JsonSchema>;
}

/** One parameter object's properties as clients write them (query strings, path segments). */
export function parameterSchemas(schema: z.ZodObject): { name: string; required: boolean; schema: JsonSchema }[] {
  const json = z.toJSONSchema(schema, { ...BASE, io: "input" }) as JsonSchema;
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    required: required.has(name),
    schema: asUrlValue(property, schema.shape[name]),
  }));
}

/**
 * A parameter as it is written in a URL: a number parameter accepts a number (server code) or its
 * digits (a URL), and a URL only has the digits, so its integer branch is the one documented; a
 * default the converter leaves out of a union is read from the contract.
 */
function asUrlValue(property: JsonSchema, field: z.ZodType | undefined): JsonSchema {
  const branches = property.anyOf as JsonSchema[] | undefined;
  const integer = branches?.find((branch) => branch.type === "integer");
  const schema = integer ? { ...integer, ...(property.default !== undefined ? { default: property.default } : {}) } : property;
  if (schema.default === undefined && field instanceof z.ZodDefault) return { ...schema, default: field.def.defaultValue };
  return schema;
}
