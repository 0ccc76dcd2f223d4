/**
 * GET /__mock/orders (mock-server/routes/dashboard.ts), tagged `mock-admin` with the other admin routes:
 * every account's orders, newest first, each as GET /v1/orders/{id} answers it to its owner and with the
 * owner's account. What the dashboard's orders panel shows; the API answers an order to its owner only.
 */
import { Type, type Static } from '@sinclair/typebox';
import { VALIDATION_ERROR } from '../errors.js';
import { MOCK_ADMIN_PREFIX } from '../mock-admin.js';
import { OrderSchema } from '../order-schema.js';
import { listEnvelopeSchema } from '../resources.js';
import { codes, json, queryParam, type Endpoint } from './endpoint.js';

/** Page limits of GET /__mock/orders. */
export const MOCK_ORDERS_PAGE = { default: 100, max: 1000 } as const;

/** One order of GET /__mock/orders: its owner's account, then the order as its owner reads it. */
export const MockOrderSchema = Type.Object(
  {
    account_id: Type.String({ description: 'The account that placed the order.' }),
    ...OrderSchema.properties,
  },
  { additionalProperties: false },
);
/** One order of GET /__mock/orders. */
export type MockOrder = Static<typeof MockOrderSchema>;

/** The endpoint. */
export const ORDERS_ENDPOINT: Endpoint = {
  method: 'get',
  path: `${MOCK_ADMIN_PREFIX}/orders`,
  operationId: 'mockOrders',
  tags: ['mock-admin'],
  access: { kind: 'admin' },
  page: MOCK_ORDERS_PAGE,
  summary: "Every account's orders, newest first, each with its bids, their status and result, and the account that placed it",
  parameters: [queryParam('account_id', { type: 'string' }, 'Only the orders of this account.')],
  answers: {
    200: json('A page of orders.', listEnvelopeSchema(MockOrderSchema)),
    400: codes('offset or limit is bad.', VALIDATION_ERROR),
  },
};
