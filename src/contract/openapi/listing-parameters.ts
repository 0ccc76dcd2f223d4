/**
 * The query parameters of GET /listingsvc/v2/listings/, generated from the field catalogue and the
 * bureau table (the same lists the mock's filter engine and the CLI's flags are built from): every
 * filterable field with its kind (boolean, comma-separated multivalue, `_min`/`_max` range) and
 * bounds, the indexed bureau2 ranges by short name, and the search's own parameters.
 */
import { BUREAU2_ELEMENTS } from '../bureau.js';
import { FILTER_DATE_FORMS } from '../dates.js';
import { FILTERABLE_FIELDS, SORTABLE_FIELDS, type ListingField } from '../listing-fields.js';
import { ALLOWED_VALUES, rangeFloor, resolveFilterParam, VALUE_ALIASES } from '../listing-filters.js';
import { queryParam, sortByParam, type Parameter } from './endpoint.js';

/** A filter date bound: a day, or a second of it (in the `timezone` header's zone). */
const FILTER_DATE = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}([ T]\\d{2}:\\d{2}:\\d{2})?$', description: FILTER_DATE_FORMS };

function rangeBound(f: ListingField, end: 'min' | 'max'): Parameter {
  const name = `${f.name}_${end}`;
  const word = end === 'min' ? 'At least' : 'At most';
  if (f.type === 'date' || f.type === 'datetime') {
    return queryParam(
      name,
      FILTER_DATE,
      `${word} this ${f.name} (${FILTER_DATE_FORMS}; a day bound covers the whole day). ${f.description}`,
    );
  }
  const floor = rangeFloor(resolveFilterParam(name)!);
  return queryParam(
    name,
    { type: f.type === 'integer' ? 'integer' : 'number', minimum: floor },
    `${word} this ${f.name}. ${f.description}`,
  );
}

function multivalue(f: ListingField): Parameter {
  const allowed = ALLOWED_VALUES[f.name];
  const aliases = Object.entries(VALUE_ALIASES[f.name] ?? {});
  const items: Record<string, unknown> = { type: f.type === 'integer' ? 'integer' : 'string' };
  if (allowed) items.enum = f.type === 'integer' ? allowed.map(Number) : [...allowed, ...aliases.map(([alias]) => alias)];
  const also = aliases.map(([alias, value]) => ` ${alias} is read as ${value}.`).join('');
  return {
    name: f.name,
    in: 'query',
    style: 'form',
    explode: false,
    schema: { type: 'array', items, minItems: 1 },
    description: `Any of these values, comma-separated${allowed && f.type !== 'integer' ? ' (matched without regard to case)' : ''}.${also} ${f.description}`,
  };
}

/** One parameter per filter of the catalogue, in its order. */
function filterParameters(): Parameter[] {
  const out: Parameter[] = [];
  for (const f of FILTERABLE_FIELDS) {
    if (f.filter === 'boolean') out.push(queryParam(f.name, { type: 'boolean' }, `true or false. ${f.description}`));
    else if (f.filter === 'multivalue') out.push(multivalue(f));
    else out.push(rangeBound(f, 'min'), rangeBound(f, 'max'));
  }
  for (const e of BUREAU2_ELEMENTS) {
    const floor = Math.min(e.min, e.special?.value ?? e.min);
    const special = e.special ? `; ${e.special.value} means ${e.special.meaning}` : '';
    for (const end of ['min', 'max'] as const) {
      out.push(
        queryParam(
          `${e.short}_${end}`,
          { type: 'integer', minimum: floor, maximum: e.max },
          `${end === 'min' ? 'At least' : 'At most'} this ${e.long} of the indexed bureau2 values (${e.units}, ${e.min} to ${e.max}${special}).`,
        ),
      );
    }
  }
  return out;
}

const bool = (name: string, fallback: string, description: string): Parameter =>
  queryParam(name, { type: 'boolean' }, `${description} Default: ${fallback}.`);

/** Every parameter of the listings search but offset and limit (the builder adds those from its page bounds). */
export function listingSearchParameters(): Parameter[] {
  return [
    {
      name: 'include_credit_bureau_values',
      in: 'query',
      style: 'form',
      explode: false,
      schema: { type: 'array', items: { type: 'string', enum: ['bureau1', 'bureau2'] }, minItems: 1 },
      description:
        'Adds the named bureau object(s): bureau1, bureau2 or both, comma-separated. bureau2 adds credit_bureau_values_bureau2, '
        + 'the full block of the 2025 answers: 319 attributes by lower-case short name, credit_report_date and fico_score; '
        + 'placeholders -1 to -6, -0.5 and 999 stand for no figure.',
    },
    bool('biddable', 'true', "true: active listings; false: originated listings (the caller's, unless listing_number names them)."),
    bool('invested', 'none', 'true: listings the caller invested in; false: the others.'),
    bool('whole_loan', 'false', 'true: whole-loan listings only.'),
    bool('exclude_co_borrower_application', 'false', 'true removes co-borrower listings.'),
    sortByParam(SORTABLE_FIELDS, 'the order of the pool (ascending when the direction is left out)'),
    ...filterParameters(),
  ];
}
