import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";

/** Paths worked out and kept; past this many distinct ones the list starts again. */
const MAX_KEPT_PATHS = 2_000;

/**
 * The route pattern a path is served by (`/mi-cuenta/tickets/:ticketId`, `/*` for the 404
 * page), the `route` label of the request metrics (decision 049): one value per route of the
 * table, whatever URL was asked for. React Router's own matching, on the route tree of the
 * build; each distinct path is matched once and kept (a bounded list, cleared when full: the
 * paths of a site's real traffic are few, and a flood of random ones costs one match each).
 */
export function routePatterns(build: ServerBuild): (pathname: string) => string {
  const tree = routeTree(build.routes);
  const kept = new Map<string, string>();
  return (pathname) => {
    let pattern = kept.get(pathname);
    if (pattern === undefined) {
      if (kept.size >= MAX_KEPT_PATHS) kept.clear();
      pattern = patternOf(tree, pathname);
      kept.set(pathname, pattern);
    }
    return pattern;
  };
}

/** React Router's data requests name the page they load: `/precios.data`, `/_root.data` for `/`. */
function pagePath(pathname: string): string {
  if (pathname === "/_root.data") return "/";
  return pathname.endsWith(".data") ? pathname.slice(0, -".data".length) : pathname;
}

function patternOf(tree: RouteObject[], pathname: string): string {
  const matches = matchRoutes(tree, pagePath(pathname));
  if (!matches) return "unmatched";
  const parts = matches.map((match) => match.route.path ?? "").filter(Boolean);
  return `/${parts.join("/")}`.replace(/\/{2,}/g, "/");
}

function routeTree(routes: ServerBuild["routes"]): RouteObject[] {
  const childrenOf = (parentId: string | undefined): RouteObject[] =>
    Object.values(routes)
      .filter((route) => route && route.parentId === parentId)
      .map((route) =>
        route!.index
          ? { id: route!.id, index: true, path: route!.path }
          : {
              id: route!.id,
              path: route!.path,
              caseSensitive: route!.caseSensitive,
              children: childrenOf(route!.id),
            },
      );
  return childrenOf(undefined);
}
