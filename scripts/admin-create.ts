/**
 * npm run admin:create -- <email>: creates or promotes an administrator. An unverified account
 * with the address gets a new password (ADMIN_PASSWORD or a generated one, printed) first.
 */
import { ensureAdmin } from "../app/features/accounts/admin-accounts.server";
import { getAuth } from "../app/features/identity/auth.server";
import { ConfigError } from "../app/platform/config.server";
import { closeDatabase, getDatabaseHandle } from "../app/platform/db/database.server";

const email = process.argv[2]?.trim().toLowerCase();
if (!email || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
  console.error("Uso: npm run admin:create -- <email>   (contraseña opcional en ADMIN_PASSWORD)");
  process.exit(2);
}

try {
  const database = getDatabaseHandle();
  await database.migrate();
  const result = await ensureAdmin(await getAuth(), database.db, email, process.env.ADMIN_PASSWORD);
  if (result.created) console.log(`Administrador creado: ${email}`);
  else if (result.reclaimed)
    console.log(
      `${email} existía sin verificar: su contraseña se ha sustituido, sus sesiones se han cerrado y ahora es administrador.`,
    );
  else console.log(`${email} ya existía: ahora es administrador (conserva su contraseña).`);
  if (result.generatedPassword) console.log(`Contraseña: ${result.generatedPassword}`);
  await closeDatabase();
} catch (error) {
  console.error(error instanceof ConfigError || error instanceof Error ? error.message : error);
  process.exit(1);
}
