import { getConfig } from "~/platform/config.server";

/**
 * Words an attacker tries first against this site (OWASP ASVS 5.0, 6.1.2 and 6.2.11; decision
 * 063): the company's names and address, its services, the staff roles, and words every sign-in
 * page shows. A password that is one of them, or the e-mail's own name, once letters only
 * ('Vertice-Digital2026!' is 'verticedigital'), is refused wherever a password is chosen, as
 * the common ones are. A longer passphrase that contains one is not: it is no longer a guess.
 */
export const CONTEXT_WORDS = [
  "vertice",
  "verticedigital",
  "digital",
  "asistenciadigital",
  "asistenciainformatica",
  "consultoria",
  "consultoriapuntual",
  "inteligenciaartificial",
  "desarrolloweb",
  "ciberseguridad",
  "reputaciondigital",
  "admin",
  "administrador",
  "administradora",
  "soporte",
  "finanzas",
  "personal",
  "equipo",
  "cliente",
  "clientes",
  "micuenta",
  "contrasena",
  "password",
  "clave",
  "acceso",
  "bienvenido",
  "bienvenida",
] as const;

/** 0→o, 1→i, 3→e, 4→a, 5→s, 7→t, @→a, $→s: the substitutions people make to look clever. */
const LOOKALIKES: Record<string, string> = {
  "0": "o",
  "1": "i",
  "3": "e",
  "4": "a",
  "5": "s",
  "7": "t",
  "@": "a",
  $: "s",
};

/** Lower case, without accents, look-alikes read as letters, every other sign dropped. */
export function lettersOf(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[0-9@$]/g, (sign) => LOOKALIKES[sign] ?? sign)
    .replace(/[^a-z]/g, "");
}

/** The same word with its digits dropped instead ('Admin2026' is 'admin'). */
const withoutDigits = (text: string) => lettersOf(text.replace(/[0-9]/g, ""));

function siteWords(): string[] {
  const { company, siteUrl } = getConfig();
  const host = new URL(siteUrl).hostname.split(".").slice(0, -1).join("");
  return [company.brandName, company.legalName, host].map(lettersOf).filter(Boolean);
}

/** Whether `password` is only a word of this site's context, or the name of `email`. */
export function isContextPassword(password: string, email?: string): boolean {
  const words = new Set<string>([...CONTEXT_WORDS, ...siteWords()]);
  if (email) words.add(lettersOf(email.split("@")[0] ?? ""));
  words.delete("");
  return words.has(lettersOf(password)) || words.has(withoutDigits(password));
}
