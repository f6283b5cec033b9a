import { runService } from '@switchboard/platform'
import { realtimeVoice } from './build.ts'

await runService(realtimeVoice, process.env)
