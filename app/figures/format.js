/** Number formatting shared by the demos: every number the page shows goes through here. */
import { t } from "../i18n.js";

/** Round to `digits` significant figures, so that a value shown is the value computed. */
export function roundSignificant(value, digits = 3) {
  return Number(value.toPrecision(digits));
}

/** A readable number: integers as they are, others with up to 6 significant figures. */
export function formatNumber(value) {
  if (Number.isInteger(value)) return String(value);
  return String(Number(value.toPrecision(6)));
}

/** Fixed decimals with a real minus sign, for columns of numbers. */
export function fixed(value, decimals) {
  const text = value.toFixed(decimals);
  return text.startsWith("-") ? `−${text.slice(1)}` : text;
}

/** A tiny difference the way a learner should read it: "0 (exactly)" or "1.1e-16". */
export function difference(value) {
  // Translators: a difference that is exactly zero, as a readout shows it.
  if (value === 0) return t("0 (exactly)");
  if (Math.abs(value) < 1e-3) return value.toExponential(1).replace("-", "−");
  return fixed(value, 4);
}
