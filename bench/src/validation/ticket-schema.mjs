// The validation workload's tool schema, written once per schema language: six fields (strings,
// an integer, an enum, a nested object, an array) with `additionalProperties: false`. No string
// formats: TypeBox needs formats registered by hand, so they would not compare like for like.
import { Type as SinclairType } from '@sinclair/typebox';
import { z } from 'zod';

/** A fresh JSON Schema object (new identity each call, so caches keyed by object miss). */
export function ticketJsonSchema() {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['title', 'priority', 'status', 'assignee', 'tags'],
    properties: {
      title: { type: 'string', minLength: 1, maxLength: 200 },
      body: { type: 'string', maxLength: 10000 },
      priority: { type: 'integer', minimum: 1, maximum: 5 },
      status: { type: 'string', enum: ['open', 'pending', 'closed'] },
      assignee: {
        type: 'object',
        additionalProperties: false,
        required: ['name'],
        properties: { name: { type: 'string', minLength: 1 }, team: { type: 'string' } },
      },
      tags: { type: 'array', maxItems: 10, items: { type: 'string', minLength: 1 } },
    },
  };
}

/** The same schema in zod 4. */
export function ticketZodSchema() {
  return z.strictObject({
    title: z.string().min(1).max(200),
    body: z.string().max(10000).optional(),
    priority: z.int().min(1).max(5),
    status: z.enum(['open', 'pending', 'closed']),
    assignee: z.strictObject({ name: z.string().min(1), team: z.string().optional() }),
    tags: z.array(z.string().min(1)).max(10),
  });
}

/** The same schema in TypeBox 0.34 (@sinclair/typebox). */
export function ticketTypeBoxSchema() {
  const T = SinclairType;
  return T.Object(
    {
      title: T.String({ minLength: 1, maxLength: 200 }),
      body: T.Optional(T.String({ maxLength: 10000 })),
      priority: T.Integer({ minimum: 1, maximum: 5 }),
      status: T.Union([T.Literal('open'), T.Literal('pending'), T.Literal('closed')]),
      assignee: T.Object(
        { name: T.String({ minLength: 1 }), team: T.Optional(T.String()) },
        { additionalProperties: false },
      ),
      tags: T.Array(T.String({ minLength: 1 }), { maxItems: 10 }),
    },
    { additionalProperties: false },
  );
}

const statuses = ['open', 'pending', 'closed'];

/** `count` distinct valid arguments objects, as a model would send them (parsed JSON). */
export function validTickets(count) {
  const values = [];
  for (let i = 0; i < count; i++) {
    const value = {
      title: `Printer on floor ${i % 9} is out of toner`,
      priority: (i % 5) + 1,
      status: statuses[i % 3],
      assignee: i % 2 ? { name: `agent-${i}`, team: 'facilities' } : { name: `agent-${i}` },
      tags: i % 4 ? ['printer', `floor-${i % 9}`] : [],
    };
    if (i % 3 === 0) value.body = 'The printer shows a toner warning and refuses to print. '.repeat(1 + (i % 4));
    values.push(JSON.parse(JSON.stringify(value)));
  }
  return values;
}

/** `count` invalid arguments objects, each with two or three problems of different kinds. */
export function invalidTickets(count) {
  return validTickets(count).map((value, i) => {
    switch (i % 4) {
      case 0:
        return { ...value, priority: 7, status: 'urgent' };
      case 1:
        return { ...value, assignee: { team: 'facilities' }, extra: true };
      case 2:
        return { ...value, priority: 2.5, tags: ['ok', ''] };
      default: {
        const { title: _title, ...rest } = value;
        return { ...rest, tags: 'printer' };
      }
    }
  });
}
