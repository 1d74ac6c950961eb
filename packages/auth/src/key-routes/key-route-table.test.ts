import { describe, expect, it } from 'vitest';
import { isIdTokenOnlyKeyRoute } from './create-key-routes.js';
import { KEY_ROUTE_PATHS, KEY_ROUTES, keyRouteText, matchKeyRoutePath } from './key-route-table.js';

const ID = 'a'.repeat(64);

describe('the /keys route table', () => {
  it('names each path once, literal paths before the one with a key id', () => {
    expect(KEY_ROUTE_PATHS).toEqual(['/', '/events', '/webhook', '/:id', '/:id/roll']);
  });

  it.each([
    ['', { path: '/', id: null }],
    ['/', { path: '/', id: null }],
    ['/events', { path: '/events', id: null }],
    ['/webhook/', { path: '/webhook', id: null }],
    [`/${ID}`, { path: '/:id', id: ID }],
    [`/${ID}/roll`, { path: '/:id/roll', id: ID }],
    ['/events/roll', null],
    ['/webhook/roll', null],
    ['//roll', null],
    ['/a/b', null],
    [`/${ID}/roll/x`, null],
  ])('matches %j', (path, match) => {
    expect(matchKeyRoutePath(path)).toEqual(match);
  });

  it('needs an ID token where the table says so, and for every method of a path whose every route needs one', () => {
    const idTokenOnly = (Object.values(KEY_ROUTES) as { method: string; path: string; credentials: string }[]).map((r) =>
      isIdTokenOnlyKeyRoute(r.method, r.path.slice('/keys'.length).replace(':id', ID)),
    );
    expect(idTokenOnly).toEqual(Object.values(KEY_ROUTES).map((r) => r.credentials === 'id_token'));
    expect(isIdTokenOnlyKeyRoute('PATCH', '/webhook')).toBe(true);
    expect(isIdTokenOnlyKeyRoute('head', '/')).toBe(false);
    expect(isIdTokenOnlyKeyRoute('PATCH', '/')).toBe(false);
    expect(isIdTokenOnlyKeyRoute('POST', '/a/b')).toBe(false);
  });

  it('writes a route for help text', () => {
    expect(keyRouteText('roll', '<base URL>')).toBe('POST <base URL>/keys/<id>/roll');
    expect(keyRouteText('list')).toBe('GET /keys');
  });
});
