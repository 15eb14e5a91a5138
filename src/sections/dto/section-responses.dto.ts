import { ApiProperty } from '@nestjs/swagger';
import { SectionDto } from './section.dto';

/** 200 of both selection routes: the section as it now is. */
export class SectionResponseDto {
  @ApiProperty({ type: SectionDto })
  section: SectionDto;
}
