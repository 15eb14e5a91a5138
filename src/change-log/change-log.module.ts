import { Global, Module } from '@nestjs/common';
import { ChangeLog } from './change-log.repository';

/**
 * The change log, for every repository that writes what a project route
 * shows, and for the live-change streams that read it.
 */
@Global()
@Module({
  providers: [ChangeLog],
  exports: [ChangeLog],
})
export class ChangeLogModule {}
