import type { FastifyInstance } from 'fastify';

/**
 * Every route the app has registered, as method and full path, read from Fastify's route tree
 * (`printRoutes`): a test that walks them all also covers a route added later.
 */
export function registeredRoutes(app: Pick<FastifyInstance, 'printRoutes'>): Array<{ method: string; path: string }> {
  const routes: Array<{ method: string; path: string }> = [];
  const parents: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^(.*?)[├└]── (.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = [...m[1]!].length / 4;
    parents.length = depth;
    const path = (parents[depth - 1] ?? '') + m[2]!;
    parents[depth] = path;
    for (const method of (m[3] ?? '').split(', ').filter(Boolean)) routes.push({ method, path });
  }
  return routes;
}
