import type { ErrorObject } from "ajv";
import { isRpcErrorCauseName, rpcErrorCauses, type RpcErrorCauseName } from "../../generated/rpc/errors.js";
import { isRpcMethodName, rpcMethodTable } from "../../generated/rpc/methods.js";
import { validateErrorData, validateErrorInfo, validateResult } from "../../generated/rpc/validators.js";
import type { RpcExchange } from "./CheckContext.js";

export const describeErrors = (errors: ErrorObject[] | null | undefined) =>
  (errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? e.keyword}`).join("; ");

const isCause = (name: unknown): name is RpcErrorCauseName => typeof name === "string" && isRpcErrorCauseName(name);

/**
 * What is wrong with a reply to `method` according to the spec: a result must match the
 * method's result schema; an error must be one of the method's declared causes (or a
 * dispatcher-level cause for unknown methods), with the catalogue's name, code and HTTP status,
 * and `info` / structured `data` matching the cause's schemas. Empty when it conforms.
 */
export function rpcReplyProblems(method: string, reply: RpcExchange): string[] {
  const { envelope } = reply;
  const problems: string[] = [];
  if (envelope.jsonrpc !== "2.0") problems.push(`jsonrpc is ${JSON.stringify(envelope.jsonrpc)}, not "2.0"`);
  if (!reply.contentType?.startsWith("application/json")) problems.push(`content-type ${reply.contentType ?? "missing"}`);
  const hasResult = "result" in envelope;
  const hasError = envelope.error !== undefined;
  if (hasResult === hasError) return [...problems, "the envelope must have exactly one of result and error"];
  if (hasResult) {
    if (reply.status !== 200) problems.push(`a result came with HTTP ${reply.status}`);
    if (!isRpcMethodName(method)) return [...problems, `${method} is not in the spec`];
    const validate = validateResult[method];
    if (!validate(envelope.result)) problems.push(`result does not match the spec: ${describeErrors(validate.errors)}`);
    return problems;
  }
  return [...problems, ...rpcErrorProblems(method, reply)];
}

/** The error part of rpcReplyProblems. */
export function rpcErrorProblems(method: string, reply: RpcExchange): string[] {
  const error = reply.envelope.error;
  if (typeof error !== "object" || error === null) return [`error is ${JSON.stringify(error)}, not an object`];
  const causeName = error.cause?.name;
  if (!isCause(causeName)) return [`error cause ${JSON.stringify(causeName)} is not in the spec's catalogue`];
  const problems: string[] = [];
  const declared: readonly string[] =
    isRpcMethodName(method) ? rpcMethodTable[method].errorCauses : ["METHOD_NOT_FOUND", "PARSE_ERROR"];
  if (!declared.includes(causeName)) problems.push(`cause ${causeName} is not one ${method} declares (${declared.join(", ")})`);
  const entry = rpcErrorCauses[causeName];
  if (error.name !== entry.error) problems.push(`${causeName}: name ${JSON.stringify(error.name)}, spec says ${entry.error}`);
  if (error.code !== entry.code) problems.push(`${causeName}: code ${JSON.stringify(error.code)}, spec says ${entry.code}`);
  if (error.message !== entry.message) problems.push(`${causeName}: message ${JSON.stringify(error.message)}, spec says ${JSON.stringify(entry.message)}`);
  if (reply.status !== entry.httpStatus) problems.push(`${causeName}: HTTP ${reply.status}, spec says ${entry.httpStatus}`);
  const validateInfo = validateErrorInfo[causeName];
  if (validateInfo !== null && !validateInfo(error.cause?.info)) {
    problems.push(`${causeName} info does not match the spec: ${describeErrors(validateInfo.errors)}`);
  }
  const validateData = validateErrorData[causeName];
  if (validateData !== null && !validateData(error.data)) {
    problems.push(`${causeName} data does not match the spec: ${describeErrors(validateData.errors)}`);
  }
  return problems;
}
