import { greet } from '../greet';

interface Route {
  method: 'GET' | 'POST';
  path: string;
  handle(params: Record<string, string>): string;
}

export const routes: Route[] = [
  {
    method: 'GET',
    path: '/hello/:name',
    handle(params) {
      return greet(params.name);
    },
  },
  {
    method: 'GET',
    path: '/health',
    handle() {
      return 'ok';
    },
  },
];

export function find(method: string, path: string): Route | undefined {
  return routes.find((r) => r.method === method && r.path === path);
}
