/**
 * Light pages (decision 038): public pages that an anonymous visitor gets as server HTML plus
 * one small script of plain DOM code (`app/entry.light.ts`), without React in the browser. A
 * route asks for it with `export const handle = lightPageHandle`; a signed-in visitor gets the
 * same route hydrated by React as every other page (their purchase dialog is a React form).
 */
export const lightPageHandle = { lightPage: true } as const;

type Match = { handle?: unknown };

/** Whether one of the matched routes asks for a light page. */
export function routesAskForLightPage(matches: readonly Match[]): boolean {
  return matches.some(
    (match) => (match.handle as { lightPage?: boolean } | undefined)?.lightPage === true,
  );
}
