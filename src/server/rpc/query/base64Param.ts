import { Base64Error, base64Decode } from "../../../chain/primitives/base64.js";
import { ParseError } from "../../errors.js";

/**
 * The bytes of a base64 params field. The schema only checks the alphabet; bad length or
 * padding is found here and refused as PARSE_ERROR naming the field, before any state is read.
 */
export function base64Param(field: string, text: string): Uint8Array {
  try {
    return base64Decode(text);
  } catch (error) {
    if (error instanceof Base64Error) throw new ParseError(`Failed parsing args: invalid ${field}: ${error.message}`);
    throw error;
  }
}
