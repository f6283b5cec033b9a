// /internal/sessions*: the realtime hub and other services (service principals only, hidden from OpenAPI). The
// schemas are the callers' too: they live in packages/contracts (conversations-api.ts).
export {
  AccessBody,
  AccessResult,
  InternalMessageBody,
  InternalMessageResult,
  InternalSessionBody,
  VisitorGrant,
} from '@switchboard/contracts/conversations-api.ts'
