/** EUR to the cent, for answers (the pure functions stay unrounded; tests compare those). */
export const cents = (n: number): number => Math.round(n * 100) / 100 + 0;

/** A ratio or percentage to 6 decimals (`+ 0` turns -0 into 0). */
export const ratio = (n: number): number => Math.round(n * 1e6) / 1e6 + 0;
