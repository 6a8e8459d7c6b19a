// Column lists map a query's values to a row by name: the compiled row function must give every
// field its own value (0/1 and false/true as booleans, nulls kept), in the list's order, for any
// values, and must refuse a field name it cannot compile safely.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bool,
  columns,
  fillRow,
  int,
  intOrNull,
  text,
  textOrNull,
  type ColumnsOf,
} from '../../../src/reference/store/columns.js';

interface Row {
  id: number;
  name: string;
  isLead: boolean;
  note: string | null;
  parent: number | null;
}
const ROW = columns<Row>({
  id: int('a.id'),
  name: text('a.name'),
  isLead: bool('a.is_lead'),
  note: textOrNull('a.note'),
  parent: intOrNull('a.parent_id'),
});

describe('column lists', () => {
  it('select the expressions in the order of the list', () => {
    expect(ROW.exprs).toBe('a.id, a.name, a.is_lead, a.note, a.parent_id');
  });

  it.each([
    {
      given: [7, 'Ada', 1, 'n', 3],
      want: { id: 7, name: 'Ada', isLead: true, note: 'n', parent: 3 },
    },
    {
      given: [8, 'Bo', 0, null, null],
      want: { id: 8, name: 'Bo', isLead: false, note: null, parent: null },
    },
    {
      given: [9, '', true, '', 0], // PostgreSQL gives booleans
      want: { id: 9, name: '', isLead: true, note: '', parent: 0 },
    },
    {
      given: [1, 'x', false, null, 2],
      want: { id: 1, name: 'x', isLead: false, note: null, parent: 2 },
    },
  ])('map $given to a row', ({ given, want }) => {
    const row = ROW.row(given);
    expect(row).toStrictEqual(want);
    expect(Object.keys(row)).toEqual(['id', 'name', 'isLead', 'note', 'parent']);
  });

  it('map every value to its own field, for any values', () => {
    const value = fc.oneof(fc.integer(), fc.string(), fc.constant(null), fc.boolean());
    fc.assert(
      fc.property(
        fc.array(fc.tuple(value, value, value, value, value), { maxLength: 20 }),
        (vs) => {
          const rows = ROW.rows(vs);
          expect(rows).toHaveLength(vs.length);
          rows.forEach((r, i) => {
            const [id, name, isLead, note, parent] = vs[i]!;
            expect(r).toStrictEqual({
              id,
              name,
              isLead: isLead === 1 || isLead === true,
              note,
              parent,
            });
          });
        },
      ),
    );
  });

  it('fill the same rows field by field where code generation is switched off', () => {
    const fill = fillRow<Row>(
      ['id', 'name', 'isLead', 'note', 'parent'].map((name) => ({ name, bool: name === 'isLead' })),
    );
    const value = fc.oneof(fc.integer(), fc.string(), fc.constant(null), fc.boolean());
    fc.assert(
      fc.property(fc.tuple(value, value, value, value, value), (vs) => {
        const filled = fill(vs);
        expect(filled).toStrictEqual(ROW.row(vs));
        expect(Object.keys(filled)).toEqual(Object.keys(ROW.row(vs)));
      }),
    );
  });

  it.each(['__proto__', 'a-b', '1a', 'a b', 'x: 1, y', ''])('refuse the field name %j', (name) => {
    const list = { [name]: int('x') } as ColumnsOf<Record<string, number>>;
    expect(() => columns(list)).toThrow(
      `column list: ${JSON.stringify(name)} is not a plain field name`,
    );
  });
});
