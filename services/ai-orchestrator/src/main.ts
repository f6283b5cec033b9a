import { runService } from '@switchboard/platform'
import { aiOrchestrator } from './build.ts'

await runService(aiOrchestrator, process.env)
