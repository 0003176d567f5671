// The platform suites' case files, in the order they run. See test/platform/README.md.
export const CASE_FILES = ['cases-names.mjs', 'cases-policy.mjs', 'cases-changes.mjs', 'cases-findings.mjs'];

/**
 * Whether a case runs on a platform ('windows' or 'macos') in a variant of its volume (the
 * macOS suite's second run is 'cached': FUSE's one-second attribute cache). A case's `on`
 * names platforms ('macos': both macOS runs) or a platform's variant ('macos-cached'); without
 * `on`, a case runs everywhere.
 */
export function caseApplies(c, platform, variant) {
  return !c.on || c.on.includes(platform) || (variant !== undefined && c.on.includes(`${platform}-${variant}`));
}
