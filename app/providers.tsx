"use client";

import { QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { TimeZoneProvider } from "@/components/layout/time-zone";
import { makeQueryClient } from "@/lib/queries/query-client";

/** The one QueryClientProvider of the app (one client per browser tab, made like the pages' own). */
export function Providers({ children, tz }: { children: ReactNode; tz: { choice: string; localZone: string | null } }) {
  const [queryClient] = useState(makeQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <TimeZoneProvider choice={tz.choice} localZone={tz.localZone}>
        {children}
      </TimeZoneProvider>
    </QueryClientProvider>
  );
}
