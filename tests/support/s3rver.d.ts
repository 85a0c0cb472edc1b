/** npm s3rver: a real S3-compatible server, run by the tests on loopback. */
declare module 's3rver' {
  interface S3rverOptions {
    address?: string
    port?: number
    silent?: boolean
    directory: string
    resetOnClose?: boolean
    configureBuckets?: Array<{ name: string }>
  }
  export default class S3rver {
    constructor(options: S3rverOptions)
    run(): Promise<{ address: string; port: number }>
    close(): Promise<void>
  }
}
