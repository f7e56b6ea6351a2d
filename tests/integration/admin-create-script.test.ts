import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { getConfig } from "~/platform/config.server";
import { openDatabase, type DatabaseHandle } from "~/platform/db/client.server";
import { getDb, installDatabase } from "~/platform/db/database.server";
import { sessions } from "~/platform/db/schema";
import { adminLoginAnswer, signedInCustomer } from "../support/customer-session";
import { createTestDatabase } from "../support/test-database";

/**
 * `npm run admin:create` as the operator runs it: a separate process on the site's database.
 * An embedded database allows one process at a time, so this file opens it, closes it while
 * the script runs, and opens it again to look at the result.
 */
const dataDir = mkdtempSync(path.join(tmpdir(), "admin-create-"));
const serverUrlDatabase = process.env.TEST_DATABASE_URL ? await createTestDatabase() : undefined;

/** Auth and the mail worker hold the database they were built on: rebuilt on each opening. */
function forgetDatabaseSingletons() {
  const holder = globalThis as { __auth?: unknown; __mailWorker?: unknown };
  holder.__auth = undefined;
  holder.__mailWorker = undefined;
}

function open(): DatabaseHandle {
  const handle =
    serverUrlDatabase?.handle ??
    openDatabase({ kind: "pglite", dataDir: path.join(dataDir, "db") });
  installDatabase(handle);
  forgetDatabaseSingletons();
  return handle;
}

async function release(handle: DatabaseHandle) {
  installDatabase(undefined);
  forgetDatabaseSingletons();
  if (!serverUrlDatabase) await handle.close();
}

afterAll(async () => {
  installDatabase(undefined);
  forgetDatabaseSingletons();
  await serverUrlDatabase?.drop();
});

async function adminCreate(email: string) {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    AUTH_SECRET: getConfig().authSecret,
    LOG_LEVEL: "info",
  };
  delete env.ADMIN_PASSWORD;
  if (serverUrlDatabase?.url) env.DATABASE_URL = serverUrlDatabase.url;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", "scripts/admin-create.ts", email],
    { env },
  );
  return stdout;
}

let attempt = 0;
async function adminLogin(email: string, password: string) {
  attempt += 1;
  return (await adminLoginAnswer(email, password, `198.51.100.${attempt}`)).status;
}

describe("npm run admin:create", () => {
  it("takes an unverified sign-up with the address back: prints a new password, which alone opens /admin", async () => {
    const email = "gerente@empresa.es";
    const attackerPassword = "contraseña-del-atacante";
    let handle = open();
    await handle.migrate();
    const attacker = await signedInCustomer(email, {
      verified: false,
      password: attackerPassword,
    });
    await release(handle);

    const output = await adminCreate(email);

    handle = open();
    try {
      const printed = /^Contraseña: (\S+)$/m.exec(output)?.[1];
      expect(await adminLogin(email, attackerPassword)).toBe(401);
      expect(
        await getDb().select().from(sessions).where(eq(sessions.userId, attacker.userId)),
      ).toEqual([]);
      expect(output).toContain(`${email} existía sin verificar`);
      expect(printed).toMatch(/^[\w-]{16}$/);
      expect(await adminLogin(email, printed!)).toBe(302);
      // The warning logged on the way names the account, never the new password.
      const logLines = output.split("\n").filter((line) => line.startsWith("{"));
      expect(logLines.map((line) => (JSON.parse(line) as { level: number }).level)).toContain(40);
      expect(logLines.join("\n")).not.toContain(printed!);
    } finally {
      await release(handle);
    }
  });
});
