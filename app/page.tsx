import Link from "next/link";
import { Audiences } from "@/components/home/audiences";
import { MetersTable } from "@/components/home/meters-table";
import { RebuildCli } from "@/components/home/rebuild-cli";
import { StatusLegend } from "@/components/home/status-legend";
import { Panel } from "@/components/ui/panel";

export default function HomePage() {
  return (
    <div className="home">
      <section className="hero" aria-labelledby="hero-title">
        <p className="eyebrow">Observability &amp; audit for LLM agent action reminders</p>
        <h1 id="hero-title">See which reminders your agents really got</h1>
        <p className="lead">
          Long-running agents receive <strong>action reminders</strong>: short runtime hints injected into each model request — requests
          left, time left, how full the request is, how many edits a published block has left, whether it is time to review. Cuescope stores
          the run telemetry, rebuilds every turn&apos;s reminder decisions with the coordination core, compares them with what the agent
          recorded, and shows where they diverge.
        </p>
        <p className="note">A delivered reminder means the text was in the request — not that the model read or followed it.</p>
        <p>
          <Link className="button" href="/runs">
            Browse runs →
          </Link>
        </p>
      </section>

      <Panel id="audiences" title="Who it is for">
        <Audiences />
      </Panel>

      <Panel id="meters" title="Four meters, each in its own unit" meta="never added together">
        <MetersTable />
        <p className="panel-note">
          A meter&apos;s <em>stage</em> is how many of its ascending thresholds the ratio has reached. Requests, minutes, bytes and edits
          are never summed into one &ldquo;overall remaining&rdquo; figure. The <code>review</code> suggestion comes from the
          scheduler&apos;s checkpoints, not from a meter.
        </p>
      </Panel>

      <div className="grid-2">
        <Panel id="statuses" title="Delivery statuses" meta="shape + word, never colour alone">
          <StatusLegend />
        </Panel>

        <Panel id="rebuild" title="Rebuild a run from the command line" meta="pure · deterministic">
          <RebuildCli />
        </Panel>
      </div>
    </div>
  );
}
