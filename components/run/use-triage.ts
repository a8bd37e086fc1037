"use client";

import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import type { TTriageKind } from "@/lib/contracts";
import { formatTurn } from "@/lib/format";
import { runTriageQuery } from "@/lib/queries/runs";
import { triageForKey, type TriageDirection } from "@/lib/keys/triage-keys";
import { keyPressOf } from "@/lib/keys/key-press";

/** What each triage kind is called in a sentence ("the next dropped reminder"). */
export const TRIAGE_NOUNS: Record<TTriageKind, string> = {
  drop: "dropped reminder",
  finding: "finding",
  delivery: "failed or uncertain delivery",
};

/**
 * The triage bar's state and its steps: the steps from the selected turn (fetched with it, kept
 * while the next loads), `step(kind, direction)` for the buttons and the keys (lib/keys/triage-keys.ts),
 * and a sentence for a live region saying where a step went. Steps run one after another, each from
 * where the last one went, so pressing `]` three times quickly moves three drops on.
 */
export function useTriage(runId: string, turn: number | null, poll: number | false, go: (turn: number) => void) {
  const queryClient = useQueryClient();
  const triage = useQuery({ ...runTriageQuery(runId, turn), placeholderData: keepPreviousData, refetchInterval: poll });
  const [message, setMessage] = useState("");
  const chain = useRef<Promise<void>>(Promise.resolve());
  const latest = useRef({ turn, go });
  /** Where the last step went until the URL (and `turn`) follows. */
  const target = useRef<number | undefined>(undefined);
  useEffect(() => {
    latest.current = { turn, go };
  });
  useEffect(() => {
    target.current = undefined;
  }, [turn]);

  const step = useCallback(
    (kind: TTriageKind, direction: TriageDirection) => {
      chain.current = chain.current
        .then(async () => {
          const from = target.current ?? latest.current.turn;
          const answer = await queryClient.fetchQuery(runTriageQuery(runId, from));
          const next = answer.steps[kind][direction];
          if (next === null) {
            setMessage(
              `No ${direction === "next" ? "later" : "earlier"} ${TRIAGE_NOUNS[kind]}${from === null ? "" : ` than ${formatTurn(from)}`}.`,
            );
            return;
          }
          target.current = next;
          latest.current.go(next);
          setMessage(`${formatTurn(next)}: ${direction} ${TRIAGE_NOUNS[kind]}.`);
        })
        .catch(() => setMessage("The triage steps could not be loaded; try again."));
    },
    [queryClient, runId],
  );

  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      const asked = triageForKey(keyPressOf(event));
      if (!asked) return;
      event.preventDefault();
      step(asked.kind, asked.direction);
    }
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [step]);

  return { triage, step, message };
}
