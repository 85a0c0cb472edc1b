// A mail server on loopback that takes every mail and only counts them, in a process of its own,
// so the bench's clock is not slowed by reading what it receives. Prints its port, then the
// count after each mail.
import { SMTPServer } from 'smtp-server'

let taken = 0
const server = new SMTPServer({
  disabledCommands: ['STARTTLS', 'AUTH'],
  authOptional: true,
  logger: false,
  onData(stream, _session, callback) {
    stream.on('end', () => {
      taken++
      process.stdout.write(`${taken}\n`)
      callback()
    })
    stream.resume()
  },
})
server.listen(0, '127.0.0.1', () => process.stdout.write(`port ${server.server.address().port}\n`))
