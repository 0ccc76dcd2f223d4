/**
 * The full bureau2 block of a listing (`credit_bureau_values_bureau2`, sent when a search asks for it with
 * `include_credit_bureau_values=bureau2`), as the 2025 answers carry it: 321 keys, the report date, the
 * binned score and 319 bureau attributes by lower-case short name, in the order the real answer sends them
 * (cwalsh525/liveLongAndProsperBot `wiki/listings/listings_wiki`, commit eacf2c4, `results_w_trans`).
 */
import { Type } from '@sinclair/typebox';
import { FICO_BINS } from './enums.js';
import { DateTimeText, stringIn, strict } from './schema-kit.js';

/** Every key of the block, in the real answer's order (two text keys among them: the report date, the score). */
export const BUREAU2_BLOCK_KEYS: readonly string[] = `
  mt02s credit_report_date at01s at02s at03s at06s at09s at12s at20s at21s at24s at25s at27s at28a at28b at29s
  at32s at34a at34b at35a at35b at36s at57s at101s at101b au01s au02s au03s au06s au09s au12s au20s au21s au24s
  au25s au27s au28s au29s au32s au34s au35s au36s au57s au101s bc01s bc02s bc03s bc06s bc09s bc12s bc20s bc21s
  bc24s bc25s bc27s bc28s bc29s bc32s bc34s bc35s bc36s bc57s bc101s bc102s bc103s bc106s bc107s bc108s bc110s
  co01s co02s co03s co04s co05s co06s co07s g001b g002b g003s g020s g041s g042s g043s g051s g057s g058s g059s
  g061s g063s g064s g066s g068s g069s g071s g093s g094s g095s g099s g100s g102s g103s g104s g105s g209s g210s
  g211s g212s g217s g218b g218d g219b g219d g220b g220d g221b g221d g222s g223s g225s g226s g227s g228s g230s
  g231s g232s g233s g234s g235s g236s g237s g238s g239s g240s g241s g960s g980s g990s hi01s hi02s hi03s hi06s
  hi09s hi12s hi20s hi21s hi24s hi25s hi27s hi28s hi29s hi32s hi34s hi35s hi36s hi57s hi101s hr01s hr02s hr03s
  hr06s hr09s hr12s hr20s hr21s hr24s hr25s hr27s hr28s hr29s hr32s hr34s hr35s hr36s hr57s hr101s in01s in02s
  in03s in06s in09s in12s in20s in21s in24s in25s in27s in28s in29s in32s in34s in35s in36s in57s in101s mt01s
  mt03s mt06s mt09s mt12s mt20s mt21s mt24s mt25s mt27s mt28s mt29s mt32s mt34s mt34b mt34c mt35s mt36s mt47s
  mt57s mt101s of01s re01s re02s re03s re06s re09s re12s re20s re21s re24s re25s re27s re28s re29s re32s re34s
  re35s re36s re57s re101s re102s rt01s rt02s rt03s rt06s rt09s rt12s rt20s st24s st25s st27s st28s st29s st32s
  st34s st35s st36s st45s st50s st57s st99s st101s atap01 hiap01 hrap01 inap01 mtap01 reap01 s063s s063a s207s
  s207a g106s g099a s206s s209s s204s g242s g243s g244s cv01 cv04 cv10 cv11 cv12 cv13 cv14 cv15 cv16 cv17 cv18
  cv20 cv21 cv22 cv23 cv24 re33s rt21s rt24s rt25s rt27s rt28s rt29s rt32s rt34s rt35s rt36s rt57s rt101s rt201s
  s004s s061s s062s s064a s068a s071a st01s st02s st03s st06s st09s st12s st20s st21s cv19 fico_score
`
  .trim()
  .split(/\s+/);

/** The block's text keys; every other key is a number. */
export const BUREAU2_BLOCK_TEXT_KEYS: ReadonlySet<string> = new Set(['credit_report_date', 'fico_score']);

/** The block's numeric attributes (319), in the real answer's order. */
export const BUREAU2_BLOCK_ATTRIBUTES: readonly string[] = BUREAU2_BLOCK_KEYS.filter((k) => !BUREAU2_BLOCK_TEXT_KEYS.has(k));

/**
 * The values that stand for no figure, as the real answers send them: -1 (no trades of this type), -2 and -3
 * (a figure that cannot be computed: no open trade, none verified), -4 (no trades or records on file), -5,
 * -6 and -0.5 (further not-computable forms, seen on st99s, on the 24s/25s/27s counts and cv04, on mt34b),
 * and 999 (months since a delinquency that never happened, the 36s attributes and s061s/s062s).
 */
export const BUREAU2_BLOCK_PLACEHOLDERS: readonly number[] = [-1, -2, -3, -4, -5, -6, -0.5, 999];

/** The block as JSON Schema: every key required, attributes numbers (-0.5 is one), nothing else. */
export const Bureau2BlockSchema = Type.Object(
  Object.fromEntries(
    BUREAU2_BLOCK_KEYS.map((k) => [
      k,
      k === 'credit_report_date' ? DateTimeText : k === 'fico_score' ? stringIn(FICO_BINS) : Type.Number({ minimum: -6 }),
    ]),
  ),
  { ...strict, description: 'The full bureau2 block: 319 attributes by short name, the report date and the binned score.' },
);
