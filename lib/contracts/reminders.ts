import { z } from "zod";
import { ZCount, zEnum, zStorableString } from "./primitives";

/** Reminder keys in presentation order (R4). */
export const REMINDER_KEYS = ["requests", "time", "context", "edits", "review"] as const;
export type TReminderKey = (typeof REMINDER_KEYS)[number];
export const ZReminderKey = zEnum(REMINDER_KEYS);

/** notice: a meter reached a new stage; state: a standing constraint; suggestion: advice to act. */
export const REMINDER_KIND: Record<TReminderKey, "notice" | "state" | "suggestion"> = {
  requests: "notice",
  time: "notice",
  context: "notice",
  edits: "state",
  review: "suggestion",
};
export type TReminderKind = (typeof REMINDER_KIND)[TReminderKey];

/** A reminder as an agent records it in `request.submitted` or `reminders.marked`. */
export const ZRecordedReminder = z.object({
  key: ZReminderKey.meta({ description: "The meter or rule the reminder is about." }),
  subject: zStorableString(() => "expected string or null")
    .nullable()
    .optional()
    .meta({ description: "What it is about within its key: the blockId for edits; absent or null otherwise." }),
  stage: ZCount.meta({ description: "The stage reached (for review, the checkpoint)." }),
});
export type TRecordedReminder = z.infer<typeof ZRecordedReminder>;
