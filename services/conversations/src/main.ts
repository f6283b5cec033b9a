import { runService } from '@switchboard/platform'
import { conversations } from './build.ts'

await runService(conversations, process.env)
