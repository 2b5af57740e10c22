// Runs named checks once per transport, prints "N passed, M failed" and exits 1 if any failed.
// open(kind) gives what each check receives; close(it) ends it after that transport's checks.
export async function runChecks(kinds, checks, open = (kind) => kind, close = async () => {}) {
  let passed = 0;
  let failed = 0;
  for (const kind of kinds) {
    const subject = await open(kind);
    for (const [name, check] of Object.entries(checks)) {
      try {
        await check(subject);
        passed++;
        console.log(`ok   ${kind}: ${name}`);
      } catch (e) {
        failed++;
        console.log(`FAIL ${kind}: ${name}: ${e?.stack ?? e}`);
      }
    }
    await close(subject);
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}

/**
 * A query once its connection is ready: a first stdio process is still generating the demo data
 * when it answers, and says so ("is not ready yet") until it is done.
 */
export async function queryWhenReady(client, args) {
  const until = Date.now() + 240000;
  for (;;) {
    const result = await client.callTool({ name: 'execute_query', arguments: args });
    const text = result.content?.[0]?.text ?? '';
    if (!(result.isError && text.includes('is not ready yet')) || Date.now() > until) return result;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
