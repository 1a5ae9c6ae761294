import type { ByteReader } from "./byteReader.js";
import type { ByteWriter } from "./byteWriter.js";
import { readRefType } from "./wasmTypes.js";

/**
 * A constant expression (global initialisers, segment offsets, element expressions): the
 * single instruction the enabled features allow, without its `end`. Only `ref.func` names a
 * function, which is why these are decoded at all (function indices shift on instrumentation).
 */
export type ConstExpr =
  | { readonly op: "i32.const"; readonly value: number }
  | { readonly op: "i64.const"; readonly value: bigint }
  | { readonly op: "f32.const" | "f64.const"; readonly bits: Uint8Array }
  | { readonly op: "ref.null"; readonly refType: number }
  | { readonly op: "ref.func"; readonly functionIndex: number }
  | { readonly op: "global.get"; readonly globalIndex: number };

export function readConstExpr(reader: ByteReader): ConstExpr {
  const opcode = reader.u8();
  let expr: ConstExpr;
  switch (opcode) {
    case 0x41:
      expr = { op: "i32.const", value: reader.varS32() };
      break;
    case 0x42:
      expr = { op: "i64.const", value: reader.varS64() };
      break;
    case 0x43:
      expr = { op: "f32.const", bits: reader.take(4) };
      break;
    case 0x44:
      expr = { op: "f64.const", bits: reader.take(8) };
      break;
    case 0xd0:
      expr = { op: "ref.null", refType: readRefType(reader) };
      break;
    case 0xd2:
      expr = { op: "ref.func", functionIndex: reader.varU32() };
      break;
    case 0x23:
      expr = { op: "global.get", globalIndex: reader.varU32() };
      break;
    default:
      return reader.fail(`unsupported constant expression opcode 0x${opcode.toString(16)}`);
  }
  if (reader.u8() !== 0x0b) reader.fail("constant expression must be a single instruction");
  return expr;
}

export function writeConstExpr(writer: ByteWriter, expr: ConstExpr): void {
  switch (expr.op) {
    case "i32.const":
      writer.u8(0x41).varS32(expr.value);
      break;
    case "i64.const":
      writer.u8(0x42).varS64(expr.value);
      break;
    case "f32.const":
      writer.u8(0x43).bytes(expr.bits);
      break;
    case "f64.const":
      writer.u8(0x44).bytes(expr.bits);
      break;
    case "ref.null":
      writer.u8(0xd0).u8(expr.refType);
      break;
    case "ref.func":
      writer.u8(0xd2).varU32(expr.functionIndex);
      break;
    case "global.get":
      writer.u8(0x23).varU32(expr.globalIndex);
      break;
  }
  writer.u8(0x0b);
}
