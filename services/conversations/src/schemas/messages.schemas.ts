// Messages as other services see them live in packages/contracts (conversations-api.ts); conversations re-exports them.
export {
  InternalMessagesQuery,
  MessageContent,
  MessageKind,
  MessageList,
  MessageMetadata,
  MessagesQuery,
  PostMessageBody,
  WrittenKind,
} from '@switchboard/contracts/conversations-api.ts'
