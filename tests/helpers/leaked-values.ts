/**
 * A missing or unformatted value leaking into text meant for people: `null`, `undefined`, `NaN`,
 * `Infinity` as words of their own, or `[object …]`. Not inside identifiers: a random key id such as
 * `…V-NaNCVKGDEX8ng` holds those letters by chance (a transport test failed on one, 1 in ~6,000 runs).
 */
export const LEAKED_VALUE = /(?<![\w-])(?:null|undefined|NaN|Infinity)(?![\w-])|\[object/;
