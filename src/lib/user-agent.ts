import pkg from "../../package.json" with { type: "json" };

/**
 * AIP-1 §7.5.1: outbound requests carry `<name>/<version> (+<url>)`, the url pointing at a
 * machine-readable agent card. The version is the full semver of package.json.
 */
export function userAgent(publicUrl?: string): string {
  const base = `${pkg.name}/${pkg.version}`;
  return publicUrl ? `${base} (+${publicUrl.replace(/\/+$/, "")}/.well-known/agent-card.json)` : base;
}
