/**
 * npm run verifactu:check: before the first real submission to AEAT, says line by line whether
 * this installation is ready (the issuer's NIF, the certificate: opens, valid, whose; the AEAT
 * environment and whether its endpoint answers; the declaración responsable signed). Reads the
 * same configuration as the server (the environment, .env in development). Sends nothing.
 *
 * Exit codes: 0 ready (warnings allowed), 1 something must be fixed, 2 the configuration itself
 * is refused.
 */
import { goLiveCheck, type CheckOutcome } from "../app/features/verifactu/go-live-check.server";
import { ConfigError, getConfig } from "../app/platform/config.server";

const MARKS: Record<CheckOutcome, string> = { ok: "✔", warning: "⚠", failure: "✘" };

async function main() {
  let config;
  try {
    config = getConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`✘ ${error.message}`);
    process.exit(2);
  }
  const lines = await goLiveCheck(config);
  for (const { outcome, label, detail } of lines)
    console.log(`${MARKS[outcome]} ${label}: ${detail}`);
  const failed = lines.some((line) => line.outcome === "failure");
  console.log(
    failed
      ? "\nNo está listo para enviar registros reales a la AEAT: corrige lo marcado con ✘."
      : "\nListo para enviar registros a la AEAT.",
  );
  process.exit(failed ? 1 : 0);
}

void main();
