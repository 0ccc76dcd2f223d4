/** GET /openapi.json: the OpenAPI 3.1 document of the API and the mock (no token needed), built on first ask. */
import { http } from 'msw';
import type { MockContext } from '../context.js';
import { route } from './route.js';

/** The document handler; its servers entry is the origin the caller reached. */
export function openApiHandlers(ctx: MockContext) {
  return [
    http.get('*/openapi.json', route(ctx, async ({ url }) => {
      const { buildOpenApiDocument } = await import('../../src/contract/openapi/document.js');
      return buildOpenApiDocument(url.origin);
    })),
  ];
}
