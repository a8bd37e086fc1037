import type { TAlertCondition, TAlertScope, TAlertValue } from "@/lib/contracts";
import { describeCondition } from "./conditions";

/** What a fired alert's webhook says (docs/alerts.md#the-webhook-body). */
export interface WebhookAlert {
  id: string;
  ruleId: string;
  ruleName: string;
  condition: TAlertCondition;
  scope: TAlertScope;
  firedAt: string;
  value: TAlertValue;
  summary: string;
  runsHref: string;
}

/** Slack's mrkdwn treats these three as markup; its docs ask for them escaped in text. */
function slackText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/**
 * The JSON body of an alert's webhook: Slack-compatible (`text`, which a Slack or Mattermost incoming
 * webhook posts as the message, with a link to the matching runs), and the alert itself under
 * `cuescope` for receivers that act on it. Made once per delivery: every attempt sends these bytes.
 */
export function webhookBody(alert: WebhookAlert, project: string, baseUrl: string): string {
  const runsUrl = `${baseUrl}${alert.runsHref}`;
  const alertsUrl = `${baseUrl}/alerts#alert-${encodeURIComponent(alert.id)}`;
  const description = describeCondition(alert.condition, alert.scope);
  return JSON.stringify({
    text:
      `:rotating_light: *${slackText(alert.ruleName)}* (${slackText(project)}): ${slackText(alert.summary)}.\n` +
      `Rule: ${slackText(description)}. <${runsUrl}|Open the runs> · <${alertsUrl}|Alerts>`,
    cuescope: {
      version: 1,
      event: "alert.fired",
      project,
      alert: {
        id: alert.id,
        ruleId: alert.ruleId,
        ruleName: alert.ruleName,
        condition: alert.condition,
        scope: alert.scope,
        description,
        firedAt: alert.firedAt,
        value: alert.value,
        summary: alert.summary,
        runsUrl,
        alertsUrl,
      },
    },
  });
}
