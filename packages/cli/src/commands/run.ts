import closeWithGrace from 'close-with-grace'
import type { Command } from 'commander'
import { loginBanner } from '../banner.ts'
import { consoleStatus, demoServed } from '../console-status.ts'
import { startEmbedded } from '../embedded.ts'
import { startFleet } from '../fleet.ts'
import { SERVICES } from '../units.ts'

const serviceNames = SERVICES.map((s) => s.name).join(', ')

function int(value: string, name: string): number {
  const n = Number(value)
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer`)
  return n
}

export function registerRun(program: Command) {
  program
    .command('start')
    .description(`embedded default: gateway + ${serviceNames} in one process, SQLite under DATA_DIR`)
    .option('--port <port>', 'gateway port (env PORT, default 8080)')
    .option('--host <host>', 'gateway interface (env HOST, default 127.0.0.1)')
    .option('--data-dir <dir>', 'SQLite files and generated secrets (env DATA_DIR, default ./data)')
    .action(async (o: { port?: string; host?: string; dataDir?: string }) => {
      const system = await startEmbedded({
        port: o.port === undefined ? undefined : int(o.port, '--port'),
        host: o.host,
        dataDir: o.dataDir,
      })
      process.stdout.write(
        loginBanner({
          mode: `embedded: gateway + ${serviceNames} in one process; SQLite in ${system.dataDir}`,
          url: system.url,
          seeded: system.seeded,
          secrets: { JWT_SECRET: system.secrets.jwt, INTERNAL_SECRET: system.secrets.internal },
          console: await consoleStatus(system.url),
          demo: await demoServed(system.url),
        }),
      )
      closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
        if (err) process.stderr.write(`switchboard: ${err.stack ?? err}\n`)
        else process.stderr.write(`switchboard: ${signal}, closing (gateway first, then services)\n`)
        await system.close()
      })
    })

  program
    .command('fleet')
    .description('one process per service and gateway replica on PostgreSQL, Redis and NATS JetStream')
    .option('--replicas <n>', 'replicas of each service', '1')
    .option('--gateway-replicas <n>', 'gateway replicas (default: --replicas)')
    .option('--port <port>', 'first gateway port (env PORT, default 8080)')
    .option('--service-port <port>', 'first service port', '8101')
    .option('--namespace <ns>', 'isolate: DB schemas <ns>_<service>, Redis prefix <ns>:, NATS prefix <ns>')
    .action(
      async (o: {
        replicas: string
        gatewayReplicas?: string
        port?: string
        servicePort: string
        namespace?: string
      }) => {
        const replicas = int(o.replicas, '--replicas') || 1
        const fleet = await startFleet({
          replicas,
          gatewayReplicas:
            o.gatewayReplicas === undefined ? replicas : int(o.gatewayReplicas, '--gateway-replicas') || 1,
          port: o.port === undefined ? undefined : int(o.port, '--port'),
          servicePort: int(o.servicePort, '--service-port'),
          namespace: o.namespace ?? process.env.SWITCHBOARD_NAMESPACE,
        })
        const units = fleet.children.map((c) => `${c.name} ${c.url}`).join(', ')
        process.stdout.write(
          loginBanner({
            mode: `fleet: ${fleet.children.length} processes on PostgreSQL, Redis, NATS JetStream`,
            url: fleet.gatewayUrls[0]!,
            seeded: fleet.seeded,
            console: await consoleStatus(fleet.gatewayUrls[0]!),
            demo: await demoServed(fleet.gatewayUrls[0]!),
            notes: [`units: ${units}`, `gateways: ${fleet.gatewayUrls.join(' ')}`],
          }),
        )
        for (const c of fleet.children) {
          c.process.once('exit', (code, signal) => {
            process.stderr.write(`switchboard: ${c.name} exited (${signal ?? code})\n`)
          })
        }
        closeWithGrace({ delay: 15_000 }, async ({ signal, err }) => {
          if (err) process.stderr.write(`switchboard: ${err.stack ?? err}\n`)
          else process.stderr.write(`switchboard: ${signal}, stopping gateways, then services\n`)
          await fleet.close()
        })
      },
    )
}
