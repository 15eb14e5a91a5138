import { Module } from '@nestjs/common';
import { ImageBlobStore } from './image-blob-store';

@Module({
  providers: [ImageBlobStore],
  exports: [ImageBlobStore],
})
export class ImageStoreModule {}
