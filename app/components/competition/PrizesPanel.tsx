/** The Prizes tab. */
export function PrizesPanel({ prize }: { prize: string }) {
  return (
    <div>
      <h2>Prizes</h2>
      <p>{prize}</p>
    </div>
  );
}
