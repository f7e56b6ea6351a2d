/**
 * The most common passwords, refused wherever a password is chosen: the 49,233 of
 * `@zxcvbn-ts/language-common` (MIT; the passwords most often found in public breaches, most
 * frequent first). Loaded on the server only, once, on first use (about 30 ms), never into a
 * page's JavaScript: this module is `.server`, and the build refuses it in the browser bundle.
 */
let common: Promise<Set<string>> | undefined;

function commonPasswords(): Promise<Set<string>> {
  common ??= import("@zxcvbn-ts/language-common").then(
    ({ dictionary }) =>
      new Set(dictionary["passwords-common"].map((password) => password.toLowerCase())),
    (error: unknown) => {
      common = undefined;
      throw error;
    },
  );
  return common;
}

/** Whether `password` is on the list, whatever its case ('Password1' is 'password1'). */
export async function isCommonPassword(password: string): Promise<boolean> {
  return (await commonPasswords()).has(password.toLowerCase());
}
