const YOCTO_PER_NEAR = 10n ** 24n;

/** A yoctoNEAR amount in NEAR, exact, without trailing zeros: 10000, 0.5, 0.000000000000000000000001. */
export function formatNear(yocto: bigint): string {
  const sign = yocto < 0n ? "-" : "";
  const abs = yocto < 0n ? -yocto : yocto;
  const whole = abs / YOCTO_PER_NEAR;
  const fraction = (abs % YOCTO_PER_NEAR).toString().padStart(24, "0").replace(/0+$/, "");
  return `${sign}${whole}${fraction === "" ? "" : `.${fraction}`}`;
}
