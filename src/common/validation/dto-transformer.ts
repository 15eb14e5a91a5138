import type { Type } from '@nestjs/common';
import type { TransformerPackage } from '@nestjs/common/interfaces/external/transformer-package.interface';
import * as classTransformer from 'class-transformer';
import { TransformationType } from 'class-transformer';
import type { MetadataStorage } from 'class-transformer/types/MetadataStorage';
import {
  declaredProperties,
  keepDeclaredProperties,
  type DtoClass,
} from './declared-properties';

// class-transformer keeps its decorators' metadata here and exports it
// only under this path (it is the same singleton its decorators write to).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as {
  defaultMetadataStorage: MetadataStorage;
};

/** Per DTO class: whether it asks class-transformer for a conversion. */
const convertsByClass = new WeakMap<DtoClass, boolean>();

/**
 * Whether a DTO declares any class-transformer behaviour (@Type, @Transform,
 * @Expose, @Exclude) on the properties it declares. Only then does
 * class-transformer do more than copy values.
 */
export function declaresConversions(dto: DtoClass): boolean {
  let converts = convertsByClass.get(dto);
  if (converts === undefined) {
    converts =
      defaultMetadataStorage.getExposedMetadatas(dto).length > 0 ||
      defaultMetadataStorage.getExcludedMetadatas(dto).length > 0 ||
      [...declaredProperties(dto)].some(
        (name) =>
          defaultMetadataStorage.findTypeMetadata(dto, name) !== undefined ||
          defaultMetadataStorage.findTransformMetadatas(
            dto,
            name,
            TransformationType.PLAIN_TO_CLASS,
          ).length > 0,
      );
    convertsByClass.set(dto, converts);
  }
  return converts;
}

const isJsonObject = (value: unknown): value is object =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The validation pipe's transformer. For a DTO that declares no conversion
 * (every request body of this API), class-transformer would only copy the
 * value, walking every nested object and de-duplicating its keys by
 * comparing each with every other: quadratic in the keys of any object in
 * the body, known field or not (70,000 keys held the event loop for
 * seconds). Such a DTO is built here instead, in one pass over its declared
 * properties, values by reference. A DTO that does declare conversions (the
 * list query's `@Type(() => Number)`) goes to class-transformer, with only
 * its declared properties.
 */
export const dtoTransformer: TransformerPackage = {
  plainToInstance<T>(dto: Type<T>, plain: unknown, options?: object): T | T[] {
    if (!isJsonObject(plain)) {
      return classTransformer.plainToInstance(dto, plain, options);
    }
    const declared = keepDeclaredProperties(plain, dto);
    if (declaresConversions(dto)) {
      return classTransformer.plainToInstance(dto, declared, options);
    }
    return Object.assign(new dto() as object, declared) as T;
  },
  classToPlain: (object: unknown, options?: object) =>
    classTransformer.instanceToPlain(object, options),
};
