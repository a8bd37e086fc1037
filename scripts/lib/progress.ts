/**
 * A progress line on stderr: redrawn in place on a terminal, every 10% otherwise (CI logs).
 * stdout stays clean for machine-readable output.
 */
export function progressBar(label: string) {
  const tty = process.stderr.isTTY;
  let lastTenth = -1;
  const started = Date.now();
  return {
    update(done: number, total: number, note = "") {
      const fraction = total > 0 ? Math.min(1, done / total) : 1;
      if (tty) {
        const width = 24;
        const filled = Math.round(fraction * width);
        process.stderr.write(
          `\r${label} [${"#".repeat(filled)}${".".repeat(width - filled)}] ${done.toLocaleString("en-US")}/${total.toLocaleString("en-US")} ${note}\x1b[K`,
        );
      } else {
        const tenth = Math.floor(fraction * 10);
        if (tenth !== lastTenth) {
          lastTenth = tenth;
          process.stderr.write(
            `${label}: ${Math.round(fraction * 100)}% (${done.toLocaleString("en-US")}/${total.toLocaleString("en-US")}) ${note}\n`,
          );
        }
      }
    },
    done(note = "") {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stderr.write(`${tty ? "\r\x1b[K" : ""}${label}: done in ${seconds} s ${note}\n`);
    },
  };
}
