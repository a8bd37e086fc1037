export function SoonBadge() {
  return <span className="badge badge-soon">soon</span>;
}
