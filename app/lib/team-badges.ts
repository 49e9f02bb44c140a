/**
 * Club badges drawn by the app (no third-party crests): a club's three-letter code and two colours. The clubs
 * the app knows (the Premier League teams of the seed and the demo, a few others) are listed here; any other
 * team gets a colour from a hash of its name and a code from its letters, the same on every page and render.
 */

export interface TeamBadgeStyle {
  /** Three upper-case letters. */
  code: string;
  /** The badge's fill (#rrggbb). */
  primary: string;
  /** The ring and the letters' contrast colour (#rrggbb). */
  secondary: string;
}

const KNOWN: Record<string, TeamBadgeStyle> = {
  "AFC Bournemouth": { code: "BOU", primary: "#b50e12", secondary: "#000000" },
  Bournemouth: { code: "BOU", primary: "#b50e12", secondary: "#000000" },
  Arsenal: { code: "ARS", primary: "#ef0107", secondary: "#ffffff" },
  "Aston Villa": { code: "AVL", primary: "#670e36", secondary: "#95bfe5" },
  Brentford: { code: "BRE", primary: "#e30613", secondary: "#ffffff" },
  "Brighton & Hove Albion": { code: "BHA", primary: "#0057b8", secondary: "#ffffff" },
  Brighton: { code: "BHA", primary: "#0057b8", secondary: "#ffffff" },
  Burnley: { code: "BUR", primary: "#6c1d45", secondary: "#99d6ea" },
  Chelsea: { code: "CHE", primary: "#034694", secondary: "#ffffff" },
  "Crystal Palace": { code: "CRY", primary: "#1b458f", secondary: "#c4122e" },
  Everton: { code: "EVE", primary: "#003399", secondary: "#ffffff" },
  Fulham: { code: "FUL", primary: "#000000", secondary: "#ffffff" },
  "Ipswich Town": { code: "IPS", primary: "#0033a0", secondary: "#ffffff" },
  "Leeds United": { code: "LEE", primary: "#1d428a", secondary: "#ffcd00" },
  "Leicester City": { code: "LEI", primary: "#003090", secondary: "#fdbe11" },
  Liverpool: { code: "LIV", primary: "#c8102e", secondary: "#f6eb61" },
  "Luton Town": { code: "LUT", primary: "#f78f1e", secondary: "#002d62" },
  "Manchester City": { code: "MCI", primary: "#6cabdd", secondary: "#1c2c5b" },
  "Manchester United": { code: "MUN", primary: "#da291c", secondary: "#fbe122" },
  "Newcastle United": { code: "NEW", primary: "#241f20", secondary: "#ffffff" },
  "Nottingham Forest": { code: "NFO", primary: "#dd0000", secondary: "#ffffff" },
  "Sheffield United": { code: "SHU", primary: "#ee2737", secondary: "#000000" },
  Southampton: { code: "SOU", primary: "#d71920", secondary: "#ffffff" },
  Sunderland: { code: "SUN", primary: "#eb172b", secondary: "#ffffff" },
  "Tottenham Hotspur": { code: "TOT", primary: "#132257", secondary: "#ffffff" },
  "West Ham United": { code: "WHU", primary: "#7a263a", secondary: "#1bb1e7" },
  "Wolverhampton Wanderers": { code: "WOL", primary: "#fdb913", secondary: "#231f20" },
  // Other leagues' clubs that appear in demos and tests.
  Lazio: { code: "LAZ", primary: "#87d8f7", secondary: "#15366f" },
  Roma: { code: "ROM", primary: "#8e1f2f", secondary: "#f0bc42" },
  "Derby County": { code: "DER", primary: "#ffffff", secondary: "#000000" },
};

/** FNV-1a, 32 bits: a small stable hash (the same in the Worker and the browser). */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function hslToHex(h: number, s: number, l: number): string {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    const c = l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(c * 255)
      .toString(16)
      .padStart(2, "0");
  };
  return `#${f(0)}${f(8)}${f(4)}`;
}

/**
 * Three letters from a name: the initials of up to three words ("Real Sociedad" -> "RSO"), else the first
 * letters of the one word ("Alpha" -> "ALP"), padded with X; a name without letters gives "FCX".
 */
export function teamCode(name: string): string {
  const words = name
    .normalize("NFD")
    .replace(/[^A-Za-z0-9 ]/g, " ")
    .split(/\s+/)
    .filter((w) => w && !/^(fc|afc|cf|sc|the|de|of|and)$/i.test(w));
  if (words.length === 0) return "FCX";
  let code: string;
  if (words.length >= 3)
    code = words
      .map((w) => w[0])
      .join("")
      .slice(0, 3);
  else if (words.length === 2) code = words[0][0] + words[1].slice(0, 2);
  else code = words[0].slice(0, 3);
  return code.toUpperCase().padEnd(3, "X");
}

/** The relative luminance of a #rrggbb colour (WCAG). */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** Black or white, whichever reads better on the colour (the badge's letters). */
export function textColourOn(hex: string): "#000000" | "#ffffff" {
  return luminance(hex) > 0.179 ? "#000000" : "#ffffff";
}

/** A known club's badge, or a deterministic one for any other name. */
export function teamBadge(name: string): TeamBadgeStyle {
  const known = KNOWN[name.trim()];
  if (known) return known;
  const h = hash(name.trim().toLowerCase());
  const hue = h % 360;
  return {
    code: teamCode(name),
    primary: hslToHex(hue, 0.62, 0.38),
    secondary: hslToHex((hue + 180) % 360, 0.7, 0.85),
  };
}
