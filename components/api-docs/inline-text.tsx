/** Text from the API table with its `code` spans (between backticks) set as code. */
export function InlineText({ text }: { text: string }) {
  return <>{text.split("`").map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : part))}</>;
}
