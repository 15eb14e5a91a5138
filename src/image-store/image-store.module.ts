import { Module } from '@nestjs/common';
import { ImageBlobStore } from './image-blob-store';
import { StoredImagesRepository } from './stored-images.repository';

@Module({
  providers: [ImageBlobStore, StoredImagesRepository],
  exports: [ImageBlobStore],
})
export class ImageStoreModule {}
