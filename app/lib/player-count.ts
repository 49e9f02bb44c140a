/** A number of players as every page prints it: "1 Player", "0 Players", "12 Players" (spec: n Players). */
export function playerCount(n: number): string {
  return `${n} ${n === 1 ? "Player" : "Players"}`;
}
