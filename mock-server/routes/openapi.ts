/** GET /openapi.json: the OpenAPI 3.1 document of the API and the mock (no token needed), built on first ask. */
import type { MockContext } from '../context.js';
import { http, route } from '../route-helper/route.js';

/** The document handler; its servers entry is root_url as the caller reached it (origin and base path). */
export function openApiHandlers(ctx: MockContext) {
  return [
    http.get(
      '*/openapi.json',
      route(ctx, async ({ root }) => {
        const { buildOpenApiDocument } = await import('../../src/contract/openapi/document.js');
        return buildOpenApiDocument(root);
      }),
    ),
  ];
}
