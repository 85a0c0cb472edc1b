import { describe, expect, it } from 'vitest'
import { defaults, readConfig } from './config'

describe('readConfig', () => {
  it('uses the documented defaults', () => {
    const config = readConfig({})
    expect(config).toMatchObject({
      mode: 'production',
      port: 3000,
      host: '0.0.0.0',
      databasePath: './data/farm.db',
      farmName: defaults.FARM_NAME,
      farmProduct: defaults.FARM_PRODUCT,
      llm: null,
    })
    expect(config.farmProducts.map((product) => product.name)).toEqual(defaults.FARM_PRODUCTS.split(', '))
  })

  it('reads every setting from the environment', () => {
    const config = readConfig({
      NODE_ENV: 'development',
      PORT: '8080',
      HOST: '127.0.0.1',
      DATABASE_PATH: '/data/farm.db',
      FARM_NAME: 'Hillside Farm',
      FARM_PRODUCT: 'Honey',
    })
    expect(config).toMatchObject({
      mode: 'development',
      port: 8080,
      host: '127.0.0.1',
      databasePath: '/data/farm.db',
      farmName: 'Hillside Farm',
      farmProduct: 'Honey',
    })
  })

  it('reads the live socket caps and the HSTS scope, with their defaults', () => {
    expect(readConfig({})).toMatchObject({
      liveMaxSockets: 2000,
      liveMaxSocketsPerAddress: 20,
      hstsIncludeSubDomains: false,
    })
    expect(
      readConfig({ LIVE_MAX_SOCKETS: '2000', LIVE_MAX_SOCKETS_PER_ADDRESS: '5', HSTS_INCLUDE_SUBDOMAINS: 'true' }),
    ).toMatchObject({ liveMaxSockets: 2000, liveMaxSocketsPerAddress: 5, hstsIncludeSubDomains: true })
    expect(() => readConfig({ LIVE_MAX_SOCKETS_PER_ADDRESS: '0' })).toThrow(/LIVE_MAX_SOCKETS_PER_ADDRESS must be/)
    expect(() => readConfig({ HSTS_INCLUDE_SUBDOMAINS: 'yes' })).toThrow(
      /HSTS_INCLUDE_SUBDOMAINS must be true or false/,
    )
  })

  it('reads the log level and the dev server the content-security policy lets in, like every other setting', () => {
    expect(readConfig({})).toMatchObject({ logLevel: 'info', devServerOrigin: null })
    expect(readConfig({ LOG_LEVEL: 'WARN' }).logLevel).toBe('warn')
    expect(() => readConfig({ LOG_LEVEL: 'loud' })).toThrow(
      'LOG_LEVEL must be one of debug, info, warn, error, not "loud"',
    )
    // Only in development: a production site never lets its pages reach another origin.
    expect(readConfig({ REMIX_DEV_ORIGIN: 'http://localhost:3001' }).devServerOrigin).toBeNull()
    expect(readConfig({ NODE_ENV: 'development', REMIX_DEV_ORIGIN: 'http://localhost:3001' }).devServerOrigin).toBe(
      'http://localhost:3001',
    )
  })

  it('reads how long spam is kept, 30 days unless set', () => {
    expect(readConfig({}).spamRetentionDays).toBe(30)
    expect(readConfig({ SPAM_RETENTION_DAYS: '7' }).spamRetentionDays).toBe(7)
    expect(() => readConfig({ SPAM_RETENTION_DAYS: '0' })).toThrow(
      /SPAM_RETENTION_DAYS must be a whole number from 1 to 3650/,
    )
  })

  it('keeps handled submissions for good unless HANDLED_RETENTION_DAYS is set', () => {
    expect(readConfig({}).handledRetentionDays).toBeNull()
    expect(readConfig({ HANDLED_RETENTION_DAYS: '365' }).handledRetentionDays).toBe(365)
    expect(() => readConfig({ HANDLED_RETENTION_DAYS: 'a year' })).toThrow(
      /HANDLED_RETENTION_DAYS must be a whole number from 1 to 36500/,
    )
  })

  it('backs up beside the database, daily, keeping 14, unless set otherwise', () => {
    expect(readConfig({}).backups).toEqual({
      dir: 'data/backups',
      everyMs: 86_400_000,
      keep: 14,
      bucket: null,
      sealKey: null,
    })
    expect(readConfig({ DATABASE_PATH: '/data/farm.db' }).backups.dir).toBe('/data/backups')
    expect(readConfig({ BACKUP_DIR: '/mnt/nas/farm', BACKUP_EVERY_MINUTES: '60', BACKUP_KEEP: '48' }).backups).toEqual({
      dir: '/mnt/nas/farm',
      everyMs: 3_600_000,
      keep: 48,
      bucket: null,
      sealKey: null,
    })
    expect(() => readConfig({ BACKUP_EVERY_MINUTES: '0' })).toThrow(
      /BACKUP_EVERY_MINUTES must be a whole number from 1 to 10080/,
    )
    expect(() => readConfig({ BACKUP_KEEP: '0' })).toThrow(/BACKUP_KEEP must be a whole number from 1 to 1000/)
  })

  it('copies the backups to a bucket only with its address, name, key ID and secret; the region read from the address', () => {
    const bucket = {
      BACKUP_BUCKET_ENDPOINT: 'https://s3.eu-central-003.backblazeb2.com/',
      BACKUP_BUCKET: 'willow-creek-backups',
      BACKUP_BUCKET_ACCESS_KEY: '003abc',
      BACKUP_BUCKET_SECRET: 'K003 secret',
    }
    expect(readConfig(bucket).backups.bucket).toEqual({
      endpoint: 'https://s3.eu-central-003.backblazeb2.com',
      bucket: 'willow-creek-backups',
      region: 'eu-central-003',
      accessKeyId: '003abc',
      secret: 'K003 secret',
    })
    expect(readConfig({ ...bucket, BACKUP_BUCKET_REGION: 'us-west-002' }).backups.bucket?.region).toBe('us-west-002')
    const key = 'A'.repeat(43)
    expect(readConfig({ BACKUP_BUCKET_KEY: key }).backups.sealKey).toHaveLength(32)
    for (const [change, said] of [
      [{ BACKUP_BUCKET_ENDPOINT: 'ftp://s3.example' }, /^BACKUP_BUCKET_ENDPOINT must be an https:\/\/ address/],
      [{ BACKUP_BUCKET_ENDPOINT: 'http://s3.example' }, /^BACKUP_BUCKET_ENDPOINT must be an https:\/\/ address/],
      [
        { BACKUP_BUCKET_ENDPOINT: 'https://003abc:secret@s3.example' },
        /^BACKUP_BUCKET_ENDPOINT must not hold a user name/,
      ],
      [
        { BACKUP_BUCKET_ENDPOINT: 'https://s3.example/bucket' },
        /^BACKUP_BUCKET_ENDPOINT must be the provider’s address alone/,
      ],
      [{ BACKUP_BUCKET: 'Farm_Backups' }, /^BACKUP_BUCKET must be the bucket’s name/],
      [{ BACKUP_BUCKET_ACCESS_KEY: '' }, /^BACKUP_BUCKET_ACCESS_KEY must be the key ID/],
      [{ BACKUP_BUCKET_SECRET: '' }, /^BACKUP_BUCKET_SECRET must be set/],
      [{ BACKUP_BUCKET_KEY: 'short' }, /^BACKUP_BUCKET_KEY must be the 43-character key/],
    ] as const) {
      expect(() => readConfig({ ...bucket, ...change })).toThrow(said)
    }
    // http on this machine only (a test's own server).
    expect(readConfig({ ...bucket, BACKUP_BUCKET_ENDPOINT: 'http://127.0.0.1:9000' }).backups.bucket?.endpoint).toBe(
      'http://127.0.0.1:9000',
    )
  })

  it.each(['eighty', '-1', '70000', '80.5'])('refuses PORT=%s', (port) => {
    expect(() => readConfig({ PORT: port })).toThrow(/PORT must be a whole number/)
  })

  it('reads the owner’s products', () => {
    const { farmProducts } = readConfig({ FARM_PRODUCTS: 'eggs, asparagus=sparrowgrass' })
    expect(farmProducts).toEqual([
      { name: 'eggs', synonyms: expect.arrayContaining(['duck eggs']) },
      { name: 'asparagus', synonyms: ['sparrowgrass'] },
    ])
  })

  it('refuses an empty product list', () => {
    expect(() => readConfig({ FARM_PRODUCTS: ' , ' })).toThrow(/FARM_PRODUCTS: The product list is empty/)
  })

  it('reads the language model settings only when AI_API_URL is set', () => {
    expect(readConfig({ AI_MODEL: 'mistral', AI_API_KEY: 'k' }).llm).toBeNull()
    expect(readConfig({ AI_API_URL: 'http://localhost:11434/v1/chat/completions' }).llm).toEqual({
      endpoint: 'http://localhost:11434/v1/chat/completions',
      model: defaults.AI_MODEL,
      timeoutMs: 5000,
    })
    expect(
      readConfig({
        AI_API_URL: 'https://models.example.com/v1/',
        AI_MODEL: 'mistral',
        AI_API_KEY: 'k',
        AI_TIMEOUT_MS: '800',
      }).llm,
    ).toEqual({
      endpoint: 'https://models.example.com/v1/chat/completions',
      model: 'mistral',
      apiKey: 'k',
      timeoutMs: 800,
    })
  })

  it.each(['localhost:11434', 'ftp://models.example.com/v1', 'not a url'])('refuses AI_API_URL=%s', (url) => {
    expect(() => readConfig({ AI_API_URL: url })).toThrow('AI_API_URL must be an http:// or https:// URL')
  })

  it('does not repeat a refused AI_API_URL, which may hold a password', () => {
    expect(() => readConfig({ AI_API_URL: 'ftp://user:hunter2@example.com' })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('hunter2') }),
    )
  })

  it.each(['0', '-5', '1.5', 'soon', '30001'])('refuses AI_TIMEOUT_MS=%s', (timeout) => {
    expect(() => readConfig({ AI_API_URL: 'http://localhost:11434/v1', AI_TIMEOUT_MS: timeout })).toThrow(
      /AI_TIMEOUT_MS must be a whole number of milliseconds from 1 to 30000/,
    )
  })
})

describe('readConfig: protection settings', () => {
  it('defaults to no extra origins, no proxy, 10 submissions a minute, 3 seconds and an open inbox', () => {
    expect(readConfig({})).toMatchObject({
      allowedOrigins: [],
      trustProxy: false,
      submissionsPerMinute: 10,
      minFillSeconds: 3,
      ownerPassword: undefined,
      sessionSecret: undefined,
    })
  })

  it('reads origins as origins, and the proxy setting as Express takes it', () => {
    const config = readConfig({
      ALLOWED_ORIGINS: ' https://farm.example/ , http://127.0.0.1:8080',
      TRUST_PROXY: 'true',
    })
    expect(config.allowedOrigins).toEqual(['https://farm.example', 'http://127.0.0.1:8080'])
    expect(config.trustProxy).toBe(1)
    expect(readConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2)
    expect(readConfig({ TRUST_PROXY: 'loopback' }).trustProxy).toBe('loopback')
  })

  it.each([
    [{ ALLOWED_ORIGINS: 'farm.example' }, /ALLOWED_ORIGINS holds "farm.example"/],
    [{ ALLOWED_ORIGINS: 'ftp://farm.example' }, /not http or https/],
    [{ SUBMISSION_RATE_LIMIT: '0' }, /SUBMISSION_RATE_LIMIT must be a whole number from 1/],
    [{ MIN_FILL_SECONDS: 'soon' }, /MIN_FILL_SECONDS must be a whole number/],
    [{ SMTP_URL: 'http://mail.example', NOTIFY_EMAIL: 'owner@farm.example' }, /SMTP_URL must start with smtp:\/\//],
    [{ SMTP_URL: 'smtp://mail.example', NOTIFY_EMAIL: 'owner@farm' }, /NOTIFY_EMAIL holds "owner@farm"/],
    [{ SMTP_URL: 'smtp://mail.example', NOTIFY_EMAIL: 'a@farm.example', NOTIFY_FROM: 'b@x.co, c@x.co' }, /one email/],
    [
      { SMTP_URL: 'smtp://mail.example', NOTIFY_EMAIL: 'a@farm.example', NOTIFY_DIGEST_AFTER: '-1' },
      /NOTIFY_DIGEST_AFTER/,
    ],
    [{ SMTP_URL: 'smtp://mail.example', NOTIFY_EMAIL: 'a@farm.example', PUBLIC_URL: 'farm.example' }, /PUBLIC_URL/],
    [{ UPDATES: 'true' }, /UPDATES=true needs SMTP_URL and NOTIFY_EMAIL/],
    [
      { INBOUND_IMAP_URL: 'https://u:p@imap.example/INBOX' },
      /INBOUND_IMAP_URL must start with imaps:\/\/ or imap:\/\//,
    ],
    [{ INBOUND_IMAP_URL: 'imaps://imap.example/INBOX' }, /INBOUND_IMAP_URL must hold the user name and password/],
    [{ INBOUND_MOVE_TO: 'Farm site' }, /INBOUND_MOVE_TO is set but INBOUND_IMAP_URL is not/],
    // Moved into the folder it reads, every message would come back under a new number, again and again.
    [
      { INBOUND_IMAP_URL: 'imaps://u:p@imap.example/INBOX', INBOUND_MOVE_TO: 'inbox' },
      /INBOUND_MOVE_TO must be another folder than the one read \(INBOX\)/,
    ],
    [
      { INBOUND_IMAP_URL: 'imaps://u:p@imap.example/INBOX', INBOUND_MOVE_TO: 'Farm*' },
      /INBOUND_MOVE_TO must be a folder name/,
    ],
    [
      { UPDATES: 'true', SMTP_URL: 'smtp://mail.example', NOTIFY_EMAIL: 'a@farm.example' },
      /UPDATES=true needs PUBLIC_URL/,
    ],
    [
      {
        UPDATES: 'true',
        SMTP_URL: 'smtp://mail.example',
        NOTIFY_EMAIL: 'a@farm.example',
        PUBLIC_URL: 'http://farm.example',
      },
      /UPDATES=true needs PUBLIC_URL to start with https:\/\/ \(http only for localhost\)/,
    ],
    [
      {
        SMTP_URL: 'smtp://mail.example',
        NOTIFY_EMAIL: 'a@farm.example',
        NOTIFY_FROM: 'Farm <farm@farm.example>\r\nBcc: x@y.example',
      },
      /NOTIFY_FROM must be one line/,
    ],
    [
      { SMTP_URL: 'smtp://mail.example', NOTIFY_EMAIL: 'a@farm.example', NOTIFY_FROM: 'Farm <farm>' },
      /NOTIFY_FROM holds "farm"/,
    ],
    [{ UPDATES: 'yes' }, /UPDATES must be true or false/],
    [{ UPDATES_PER_MINUTE: '0' }, /UPDATES_PER_MINUTE must be a whole number from 1 to 60000/],
    [{ WEBHOOK_SECRET: `whsec_${'A'.repeat(32)}` }, /WEBHOOK_SECRET is set but WEBHOOK_URL is not/],
    [{ WEBHOOK_URL: 'https://hooks.example' }, /WEBHOOK_SECRET must be "whsec_"/],
    [{ WEBHOOK_URL: 'https://hooks.example', WEBHOOK_SECRET: 'whsec_c2hvcnQ=' }, /24 to 64 bytes/],
    [{ WEBHOOK_URL: 'hooks.example', WEBHOOK_SECRET: `whsec_${'A'.repeat(32)}` }, /WEBHOOK_URL must be an http/],
    [
      { WEBHOOK_URL: 'https://hook:pa55word@hooks.example', WEBHOOK_SECRET: `whsec_${'A'.repeat(32)}` },
      /WEBHOOK_URL must not hold a user name or password/,
    ],
    [{ WEBHOOK_URL: 'https://hooks.example', WEBHOOK_SECRET: `whsec_${'A'.repeat(41)}` }, /24 to 64 bytes/],
    [{ WEBHOOK_INCLUDE_SPAM: 'true' }, /WEBHOOK_INCLUDE_SPAM is set but WEBHOOK_URL is not/],
  ])('refuses %j', (env, message) => {
    expect(() => readConfig(env)).toThrow(message)
  })

  it('mails the owner only with both SMTP_URL and NOTIFY_EMAIL, from the first owner address unless told', () => {
    expect(readConfig({}).notify).toBeNull()
    expect(readConfig({ SMTP_URL: 'smtp://mail.example' }).notify).toBeNull()
    expect(readConfig({ NOTIFY_EMAIL: 'owner@farm.example' }).notify).toBeNull()
    expect(
      readConfig({
        SMTP_URL: 'smtps://farm:secret@mail.example:465',
        NOTIFY_EMAIL: ' owner@farm.example , partner@farm.example ',
        PUBLIC_URL: 'https://farm.example/',
      }).notify,
    ).toEqual({
      smtpUrl: 'smtps://farm:secret@mail.example:465',
      to: ['owner@farm.example', 'partner@farm.example'],
      from: 'owner@farm.example',
      fromName: null,
      digestAfter: 3,
      digestWindowMs: 600_000,
      publicUrl: 'https://farm.example',
    })
    expect(
      readConfig({ SMTP_URL: 'smtp://mail.example', NOTIFY_EMAIL: 'a@farm.example', NOTIFY_FROM: 'site@farm.example' })
        .notify?.from,
    ).toBe('site@farm.example')
  })

  it('sends updates only with UPDATES=true, mail and PUBLIC_URL, 60 a minute unless told', () => {
    const mail = {
      SMTP_URL: 'smtp://mail.example',
      NOTIFY_EMAIL: 'a@farm.example',
      PUBLIC_URL: 'https://farm.example/',
    }
    expect(readConfig(mail).updates).toBeNull()
    expect(readConfig({ ...mail, UPDATES: 'true' }).updates).toEqual({
      perMinute: 60,
      publicUrl: 'https://farm.example',
    })
    expect(readConfig({ ...mail, UPDATES: 'true', UPDATES_PER_MINUTE: '600' }).updates?.perMinute).toBe(600)
    // Tried on this machine, plain http is taken.
    for (const site of ['http://localhost:3000', 'http://127.0.0.1:3000', 'http://[::1]:3000']) {
      expect(readConfig({ ...mail, PUBLIC_URL: site, UPDATES: 'true' }).updates?.publicUrl).toBe(site)
    }
  })

  it('takes a name with the From address, as RFC 5322 writes it, and none is none', () => {
    const mail = { SMTP_URL: 'smtp://mail.example', NOTIFY_EMAIL: 'a@farm.example' }
    const sender = (from: string) => {
      const notify = readConfig({ ...mail, NOTIFY_FROM: from }).notify!
      return { from: notify.from, fromName: notify.fromName }
    }
    expect(sender('farm@farm.example')).toEqual({ from: 'farm@farm.example', fromName: null })
    expect(sender('Willow Creek Farm <farm@farm.example>')).toEqual({
      from: 'farm@farm.example',
      fromName: 'Willow Creek Farm',
    })
    expect(sender('"Willow Creek, Ltd" <farm@farm.example>')).toEqual({
      from: 'farm@farm.example',
      fromName: 'Willow Creek, Ltd',
    })
    expect(sender('"Die \\"Grüne\\" Wiese" <hof@wiese.example>')).toEqual({
      from: 'hof@wiese.example',
      fromName: 'Die "Grüne" Wiese',
    })
    expect(sender('Ferme du Château <ferme@chateau.example>')).toEqual({
      from: 'ferme@chateau.example',
      fromName: 'Ferme du Château',
    })
    expect(readConfig(mail).notify).toMatchObject({ from: 'a@farm.example', fromName: null })
  })

  it('posts leads to a webhook only with WEBHOOK_URL and a whsec_ key, spam only when asked', () => {
    expect(readConfig({}).webhook).toBeNull()
    const key = Buffer.alloc(32, 7)
    const webhook = readConfig({
      WEBHOOK_URL: 'https://hooks.example/leads',
      WEBHOOK_SECRET: `whsec_${key.toString('base64')}`,
    }).webhook
    expect(webhook).toEqual({ url: 'https://hooks.example/leads', key, includeSpam: false })
    expect(readConfig({}).retryBaseMs).toBe(30_000)
    expect(readConfig({ NOTIFY_RETRY_SECONDS: '5' }).retryBaseMs).toBe(5_000)
  })

  it('offers the tests’ own mail server as a provider only with TEST_MAIL_PROVIDER, and never with a password in it', () => {
    expect(readConfig({}).testMailProvider).toBeNull()
    expect(
      readConfig({ TEST_MAIL_PROVIDER: 'smtp://127.0.0.1:2587?requireTLS=true imaps://localhost:2993/INBOX' })
        .testMailProvider,
    ).toMatchObject({
      id: 'this-machine',
      sending: { host: '127.0.0.1', port: '2587', security: 'starttls' },
      reading: { host: 'localhost', port: '2993', security: 'tls' },
    })
    for (const wrong of [
      'smtp://farm:hay@127.0.0.1:2587 imaps://localhost:2993',
      'imaps://localhost:2993 smtp://127.0.0.1:2587',
      'smtp://127.0.0.1:2587',
      'smtp://127.0.0.1:2587 imaps://localhost:2993 extra',
      'https://127.0.0.1 imaps://localhost:2993',
    ]) {
      expect(() => readConfig({ TEST_MAIL_PROVIDER: wrong }), wrong).toThrow(
        'TEST_MAIL_PROVIDER must be an smtp:// and an imaps:// address without a password, parted by a space',
      )
    }
  })
})
