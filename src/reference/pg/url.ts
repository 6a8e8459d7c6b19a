// Whether --db names PostgreSQL: kept apart from the driver so the CLI checks options without
// loading it.
export function isPostgresUrl(target: string): boolean {
  return /^postgres(ql)?:\/\//i.test(target);
}
